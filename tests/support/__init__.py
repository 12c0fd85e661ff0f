"""Helpers for the tests, one module per purpose (imported as ``support.NAME``); no tests here."""
