"""The demand of the citations (kb/knowledge/reify.py's module doc): which
records a model shows. A module of its own so that the engine reads it
without importing reify.py and, with it, clingo.ast (about 2 ms of a cold
`aslkb query`, which reads a cached knowledge base and reifies nothing)."""

# The demand (see the module doc): the answers and undecided atoms, then what
# a record of a demanded atom (`_cited`, and `_agg` where its head is demanded:
# the records a model shows) used, counted or left out. Their atoms are lists
# (`_list`), so that two rules read any number of them: each rule of the
# demand costs the grounder about 0.25 ms in a small situation (it is
# evaluated again at each step of the recursion), and each rule that reads
# every record an index over them all. The exception atom of a `_blocked`
# record is demanded here, one rule for all of them; where the record holds
# a pattern (`_any`), its own rule beside the record demands the atoms
# (kb/knowledge/reify.py), and the pattern demanded here has no records.
DEMAND = """
_why(answer(Q, V)) :- answer(Q, V).
_why(undecided(Q, R)) :- undecided(Q, R).
_cited(I, H, P, N) :- _why(H), _why(I, H, P, N).
_used(P) :- _cited(_, _, P, _).
_used(E) :- _why(H), _agg(_, H, E).
_why(A) :- _used((A, _)).
_used(R) :- _used((_, R)).
_why(N) :- _why(H), _excluded(_, H, N).
_why(N) :- _blocked(_, _, N).
"""


# The demand of the records part grounded after the values (kb/knowledge/targeted.py):
# its seeds, and what a citing model shows (kb/engine/solve.py's #show lines show
# nothing there: they read DEMAND's `_cited` and `_why/1`).
RECORDS_DEMAND = """
_dm_answer_2(Q, V) :- answer(Q, V).
_dm_undecided_2(Q, R) :- undecided(Q, R).
#show _why(I, H, P, N) : _why(I, H, P, N), _explain.
#show _agg(I, H, E) : _agg(I, H, E), _explain.
#show _looks(I, H, P) : _looks(I, H, P), _explain.
#show _blocked(I, H, N) : _blocked(I, H, N), _explain.
#show _excluded(I, H, N) : _excluded(I, H, N), _explain.
"""
