"""Game records: YAML read safely, the schema, replay and validation, the record's text, game files on disk, and comparing copies.
"""

__all__: list[str] = []
