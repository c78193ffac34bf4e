"""Layer 2: the rule files and their annotations (rulefiles), their transformation into the program clingo runs with its bookkeeping (reify, patterns, program) and the query catalog."""
