"""Drawing the sheet: the pulka as SVG and the score sheet as PDF (WeasyPrint, loaded lazily)."""

from scorekeeper.render.export import export_pdf
from scorekeeper.render.pdf import sheet_pdf
from scorekeeper.render.pulka import pulka_svg

__all__ = ["export_pdf", "pulka_svg", "sheet_pdf"]
