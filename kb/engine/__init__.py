"""Layer 3: grounding and solving (solve.py holds the one function that makes a clingo Control), dice enumeration (odds) and the conflicts of an inconsistent situation."""
