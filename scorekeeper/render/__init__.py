"""Drawing the sheet: the pulka as SVG and the score sheet as PDF (WeasyPrint, loaded lazily)."""

from scorekeeper.render.pulka import pulka_svg

__all__ = ["pulka_svg"]
