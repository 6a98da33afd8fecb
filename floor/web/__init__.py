"""The web layer: blueprints, socket namespaces, CLI. The only part of floor/ that imports flask."""
