"""What publication routes take besides images: the citation formats."""

from typing import Literal

CitationFormat = Literal["bibtex", "cff"]
