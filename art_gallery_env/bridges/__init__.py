"""Bridges to other frameworks' APIs (OpenSpiel). Each module imports its framework,
which comes from an extra (``pip install 'art-gallery-env[openspiel]'``)."""
