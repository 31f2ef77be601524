"""Typed records of what a run and a sweep are made of: what the engine produces, the
session keeps and every view reads. They import nothing of the package but each other."""
