"""Photos as users have them: decode a file or its bytes to a BGR frame, or say in one line why not.

OpenCV decodes (``cv2.imdecode`` with ``IMREAD_COLOR``, which applies the EXIF orientation as
``cv2.imread`` does): JPEG, PNG, WebP and the other formats its build reads, at any size a phone makes
(a 12-megapixel photo is 36 MB as an array; the readers scale down where they need to).

Before decoding, the bytes are checked to be complete, because a cut-off file can still decode (older
libjpeg builds fill the missing rows with grey and only warn): a JPEG must reach its end-of-image
marker, a PNG its ``IEND`` chunk, a WebP the length its RIFF header gives. Bytes after the end (many
phones, Samsung among them, append a trailer to their JPEGs) are ignored, as OpenCV ignores them.

Example::

    frame = load_image(Path("photo.jpg"))   # uint8 (H, W, 3), BGR, upright
"""

from __future__ import annotations

import contextlib
import struct
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageError

__all__ = ["ImageError", "decode_image", "load_image", "quiet_opencv"]

_SOI, _EOI, _SOS = 0xD8, 0xD9, 0xDA
# Markers without a length field: TEM and the restart markers RST0-7 (ITU T.81 table B.1).
_BARE = {0x01, *range(0xD0, 0xD8)}
_PNG = b"\x89PNG\r\n\x1a\n"


def _jpeg_complete(data: bytes) -> bool:
    """Does the JPEG in ``data`` reach its end-of-image marker?

    A search for the bytes FF D9 is not enough: an EXIF thumbnail (itself a JPEG) carries one near the
    start, and a phone's trailer one near the end. So the segments are walked (T.81 annex B): headers by
    their lengths, entropy-coded data byte by byte, where an FF is a marker unless followed by 00
    (stuffing) or a restart marker. Written here because OpenCV reports no truncation and a second
    decoder (Pillow) would be a dependency for these 30 lines.
    """
    n, i = len(data), 2
    while i + 1 < n:
        if data[i] != 0xFF:
            return True  # no marker where one must be: not a cut, so OpenCV's decoder judges it
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte before a marker
            i += 1
            continue
        if marker == _EOI:
            return True
        if marker in _BARE or marker == _SOI:
            i += 2
            continue
        if i + 4 > n:
            return False
        i += 2 + struct.unpack_from(">H", data, i + 2)[0]
        if marker == _SOS:  # entropy-coded data: on to the FF that starts the next marker
            while True:
                i = data.find(b"\xff", i)
                if i < 0 or i + 1 >= n:
                    return False
                if data[i + 1] != 0 and not 0xD0 <= data[i + 1] <= 0xD7:
                    break
                i += 2
    return False


def _png_complete(data: bytes) -> bool:
    """Does the PNG in ``data`` reach its ``IEND`` chunk (chunks walked by their lengths)?"""
    i = len(_PNG)
    while i + 8 <= len(data):
        length, kind = struct.unpack_from(">I4s", data, i)
        if kind == b"IEND":
            return True
        i += 12 + length
    return False


def _webp_complete(data: bytes) -> bool:
    """Does ``data`` hold the whole RIFF container its header announces?"""
    return len(data) >= 8 + struct.unpack_from("<I", data, 4)[0]


def _complete(data: bytes) -> bool:
    if data[:2] == b"\xff\xd8":
        return _jpeg_complete(data)
    if data[:8] == _PNG:
        return _png_complete(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp_complete(data)
    return True  # another format: OpenCV's decoder is the check


@contextlib.contextmanager
def quiet_opencv() -> Iterator[None]:
    """Silence OpenCV's own log while probing a device or file: a bad input is reported once, by us,
    in one line (OpenCV would add decoder chatter on stderr)."""
    logging = getattr(getattr(cv2, "utils", None), "logging", None)
    if logging is None:
        yield
        return
    old = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_SILENT)
    try:
        yield
    finally:
        logging.setLogLevel(old)


def decode_image(data: bytes, name: str = "image") -> np.ndarray:
    """Decode an encoded image (JPEG, PNG, WebP, ...) to uint8 (H, W, 3) BGR, EXIF orientation applied.

    :param name: how messages name the bytes (a file name); each message starts with it.
    :raises ImageError: when the bytes are empty, cut off, or not an image OpenCV can decode.
    """
    if not data:
        raise ImageError(f"{name} is empty: give a complete JPEG, PNG or WebP photo")
    if not _complete(data):
        raise ImageError(f"{name} is truncated (no end marker): copy the file again")
    with quiet_opencv():
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ImageError(f"{name} is not an image (cannot decode it): check it is a JPEG, PNG or WebP photo")
    return image


def load_image(path: str | Path) -> np.ndarray:
    """Read and decode the image file ``path`` (see :func:`decode_image`).

    :raises ImageError: with a one-line reason: missing, a directory, unreadable, empty, truncated,
        not an image.
    """
    path = Path(path)
    if path.is_dir():
        raise ImageError(f"{path} is a directory: give the path of one JPEG, PNG or WebP photo")
    if not path.is_file():
        raise ImageError(f"no image file {path}: give the path of a JPEG, PNG or WebP photo")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImageError(f"cannot read {path}: {exc.strerror or exc}") from None
    return decode_image(data, str(path))
