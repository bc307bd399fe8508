"""Reflecto's camera side: renderer, reader, perceiver and the `sim` camera's film.

Everything here may import OpenCV; the rules engine (`../rules/`) never does.
"""
