"""The LALR(1) parser of situation.lark: Lark's tables (parser/_situation_tables.py)
run by a loop of a few lines.

It does what Lark's own LALR parser and tree builder do with those tables
(lark/parsers/lalr_parser_state.py, lark/parse_tree_builder.py), with the
transformer's methods called at each reduction as Lark calls them, so the
statements it builds are those Lark built. Loading plain tables costs well
under a millisecond where Lark's stand-alone module cost about 15 ms (its code,
then its objects rebuilt from their serialized form), and a large file parses
faster (5,000 units: about 140 ms where Lark took 220).
"""
from __future__ import annotations

from typing import Callable, Iterator, NamedTuple

from . import _situation_tables as tables
from .statements import Word

START, END, STATES, RULES = tables.START, tables.END, tables.STATES, tables.RULES


class UnexpectedToken(Exception):
    """The parser cannot take `token` here; `expected` names the terminals it
    could take (exact: LALR merges lookaheads, so the table row is wider)."""

    def __init__(self, token: Word, expected: set[str]) -> None:
        super().__init__(f"unexpected {token.type} {token.text!r} at {token.line}:{token.column}")
        self.token, self.expected = token, expected
        self.line, self.column = token.line, token.column


class Tree(NamedTuple):
    """A rule the transformer has no method for (Lark's Tree): an inlined
    rule's children, which the reduction of the rule around it takes in."""

    data: str
    children: list


def reductions(transformer) -> list[tuple[str, int, Callable[[list], object]]]:
    """For each rule: what it reduces to, how many values it takes off the
    stack, and the function that makes its value from them."""
    made = []
    for origin, expansion, name, expand1, kept, nones_after in RULES:
        method = getattr(transformer, name, None)
        build = method if method is not None else _tree(name)
        if expand1:
            build = _expand_single_child(build)
        if kept is not None:
            build = _filter(build, kept, nones_after)
        made.append((origin, len(expansion), build))
    return made


def _tree(name: str):
    return lambda children: Tree(name, children)


def _expand_single_child(build):
    """`?rule`: a single child stands for the rule."""
    return lambda children: children[0] if len(children) == 1 else build(children)


def _filter(build, kept: tuple, nones_after: int):
    """The children a rule keeps (Lark's ChildFilterLALR): anonymous tokens
    left out, inlined rules' children taken in, None for an optional part left out."""
    def filtered(children):
        out: list = []
        for i, inline, nones in kept:
            if nones:
                out += [None] * nones
            if inline:  # a list's items: the first in place, so a long list is not copied again and again
                if out:
                    out += children[i].children
                else:
                    out = children[i].children
            else:
                out.append(children[i])
        if nones_after:
            out += [None] * nones_after
        return build(out)

    return filtered


def parse(tokens: Iterator[Word], stack: list[int], made: list) -> object:
    """Run the tables over the tokens: the start rule's value. `stack` holds
    the states, starting with START; the lexer reads it to know what the
    parser takes next. Raises UnexpectedToken at the first token it cannot take."""
    values: list = []
    token = None
    for token in tokens:
        while True:
            action = STATES[stack[-1]].get(token.type)
            if action is None:
                raise UnexpectedToken(token, accepts(stack))
            if action >= 0:
                stack.append(action)
                values.append(token)
                break
            _reduce(stack, values, made[-1 - action])
    end = Word("", token.line, token.column, "$END") if token else Word("", 1, 1, "$END")
    while True:
        action = STATES[stack[-1]].get("$END")
        if action is None or action >= 0:
            raise UnexpectedToken(end, accepts(stack))
        _reduce(stack, values, made[-1 - action])
        if stack[-1] == END:
            return values[-1]


def _reduce(stack: list[int], values: list, reduction) -> None:
    origin, size, build = reduction
    if size:
        children = values[-size:]
        del stack[-size:]
        del values[-size:]
    else:
        children = []
    values.append(build(children))
    stack.append(STATES[stack[-1]][origin])


def takes(stack: list[int], terminal: str) -> bool:
    """Would the parser shift `terminal` next, after the reductions it calls for?"""
    stack = list(stack)
    while True:
        action = STATES[stack[-1]].get(terminal)
        if action is None:
            return False
        if action >= 0:
            return True
        origin, expansion = RULES[-1 - action][:2]
        if expansion:
            del stack[-len(expansion):]
        goto = STATES[stack[-1]].get(origin)
        if goto is None:
            return False
        stack.append(goto)


def accepts(stack: list[int]) -> set[str]:
    """The terminals the parser takes next (Lark's InteractiveParser.accepts)."""
    return {t for t in STATES[stack[-1]] if t.isupper() and takes(stack, t)}
