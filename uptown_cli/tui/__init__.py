"""The game at the terminal: a full-screen board (``app``, with Textual), its review
(``review``), and the same game as lines for screen readers and scripts (``plain``), over one
``session`` that plays every turn through ``turns``."""

__all__: list[str] = []
