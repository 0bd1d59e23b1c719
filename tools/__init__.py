"""Tools of the build that are not part of the service (the import-linter contract type)."""
