"""Facts about an XML document: its root element, how many elements it has, and how small zlib
makes it."""

from xmlzip._xmlzip import describe, libxml2_version, zlib_version

__all__ = ["describe", "libxml2_version", "zlib_version"]
