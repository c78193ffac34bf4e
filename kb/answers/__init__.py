"""Layer 4: asking a situation (ask, and batch's fast check of many), reading answers and citations from a model (read) and explaining them (explain)."""
