"""clingo 5.8.0: with facts added through the backend under choice atoms, the
constraint `#false :- v(_), e.` is grounded over v(1) only: v(2) and e hold in
a model. The same program as text, or with `v(I)`, is UNSAT."""
import clingo
F, N = clingo.Function, clingo.Number
prog = """
v(1) :- h(X,Y,A), h(X,Y,B), X != Y, A < B.
v(2) :- s(X,Y,A), s(X,Y,B), A < B.
h(X,Y,N) :- s(X,Y,N), at(X,X), at(Y,Y).
s(X,Y,N) :- r(X,Y,N).
s(Y,X,N) :- r(X,Y,N).
{ e }.
#false :- v(VAR), e.
"""
for var in ("_", "I"):
    c = clingo.Control(["--warn=none"])
    c.add("base", [], prog.replace("VAR", var))
    with c.backend() as b:
        facts = {1: F("at", [N(1), N(1)]), 2: F("at", [N(2), N(2)]), 3: F("r", [N(1), N(2), N(1)]), 4: F("r", [N(2), N(1), N(5)])}
        for line, fact in facts.items():
            a = b.add_atom(F("st", [N(line)])); b.add_rule([a], choice=True)
            b.add_rule([b.add_atom(fact)], [a])
    c.ground([("base", [])])
    assumptions = [(F("st", [N(1)]), False)] + [(F("st", [N(i)]), True) for i in (2, 3, 4)] + [(F("e"), True)]
    print(f"v({var}):", c.solve(assumptions=assumptions))
