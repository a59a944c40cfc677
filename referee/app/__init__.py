"""The application: configuration, the wiring of one referee (``referee.py``), the CLI, the service loop,
the close workers' pool and the demo. The top layer: it may import every other package."""
