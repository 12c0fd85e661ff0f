"""What a game looks like: text boards and tables, JSON shapes, SVG pictures and the HTML replay page.
"""

__all__: list[str] = []
