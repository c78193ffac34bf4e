"""Layer 0, below everything: where the knowledge base lives (root), the disk cache, the run's limits and the errors every layer raises. Imports nothing of aslkb."""
