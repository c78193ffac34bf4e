"""Ground-program size against situation size (issue 10's proportionality goal).

Builds a night situation with U units and A attacks (each unit in its own hex,
ranges stated only between attackers and their targets), asks the same
queries of every attack, and prints the number of ground rules clingo makes
for 10 units / 2 attacks and for 100 units / 20 attacks. Goal: at most 20x.
"""
from __future__ import annotations

import clingo

from aslkb.answers.ask import query_facts, settle
from aslkb.engine.solve import in_force_facts
from aslkb.knowledge.demand import DEMAND
from aslkb.knowledge.program import knowledge_base
from aslkb.parser import parse

# What the answers read of a model, for a program run with clingo's own API
# (aslkb's engine shows these through kb/engine/solve.py). A record is shown
# only where its head is demanded (kb/knowledge/demand.py DEMAND).
SHOW_ANSWERS = "\n#show answer/2. #show undecided/2.\n"
SHOW_BOOKKEEPING = "\n" + DEMAND + """
#show _why(I, H, P, N) : _cited(I, H, P, N). #show _agg(I, H, E) : _agg(I, H, E), _why(H).
#show _looks(I, H, P) : _looks(I, H, P), _why(H). #show _blocked/3.
#show _excluded(I, H, N) : _excluded(I, H, N), _why(H).
"""


def situation(units: int, attacks: int) -> str:
    lines = ["scenario night nvr 3 year 1944 san german 3 san russian 4"]
    for i in range(units):
        nation = "german" if i % 2 == 0 else "russian"
        column = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[i % 26]
        lines.append(f"hex {1 + i // 260}{column}{1 + (i // 26) % 10} {'woods' if i % 3 == 0 else 'open'}")
        lines.append(f"unit U{i} {nation} squad 4-6-7 at {1 + i // 260}{column}{1 + (i // 26) % 10}")
    for a in range(attacks):
        firer, target = 2 * a, 2 * a + 1
        lines.append(f"range U{firer} U{target} 1")  # columns 2a, 2a+1 of one row: adjacent
        lines.append(f"attack A{a} by U{firer} at U{target}")
        lines.append(f"query drm A{a} night_lv")
        lines.append(f"query within_nvr U{firer} U{target}")
        lines.append(f"query night_class U{firer}")
    return "\n".join(lines) + "\n"


def ground_rules(units: int, attacks: int) -> int:
    kb = knowledge_base()
    parsed = parse(situation(units, attacks))
    settings = settle(parsed, kb)
    queries = [q.symbol for q in parsed.queries]
    facts = [*query_facts(parsed, settings, queries), *in_force_facts(settings)]
    selection = kb.select(settings.edition, list(settings.interpretations), queries, facts)  # as ask() does
    control = clingo.Control(["--warn=none", "--stats"])
    control.add("base", [], selection.text + SHOW_ANSWERS + SHOW_BOOKKEEPING)
    with control.backend() as backend:
        for fact in facts:
            backend.add_rule([backend.add_atom(fact)])
    control.ground([("base", [])])
    control.solve()
    return int(control.statistics["problem"]["lp"]["rules"])


def main() -> None:
    small, large = ground_rules(10, 2), ground_rules(100, 20)
    print(f"ground rules: {small} for 10 units / 2 attacks, {large} for 100 units / 20 attacks: "
          f"{large / small:.1f}x (goal: at most 20x)")


if __name__ == "__main__":
    main()
