"""vision.frames.images (issue 14 item 5): photos as users have them, every file made here -- a
phone's trailer after the JPEG end, an EXIF orientation, a 12-megapixel photo, PNG and WebP, files
cut short and bytes that are no image -- read by the loader and through `tavla read` / `tavla dice`."""

from __future__ import annotations

import json
import struct
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from controller.cli import app
from vision.errors import ImageError, SourceError, VisionError
from vision.frames.images import decode_image, load_image
from vision.reader import read_board
from vision.render.scene import render
from vision.render.spec import starting_spec

runner = CliRunner()

# What a Samsung phone appends after the end-of-image marker looks like this: a tagged block with a
# second JPEG's start marker in it, so a decoder must stop at the first image's end.
TRAILER = b"SEFH" + b"\x00" * 12 + b"\xff\xd8\xff\xe0 trailer image \xff\xd9" + b"SEFT" * 8


def _photo(h: int = 120, w: int = 160, seed: int = 0) -> np.ndarray:
    """A smooth colour image with a white block at the top-left (to see where a turn puts it)."""
    rng = np.random.default_rng(seed)
    img = cv2.resize(rng.integers(0, 256, (h // 8, w // 8, 3), dtype=np.uint8), (w, h))
    img[: h // 4, : w // 4] = 255
    return img


def _jpeg(img: np.ndarray, **params: int) -> bytes:
    flags = [v for k, q in params.items() for v in (getattr(cv2, k), q)]
    ok, buf = cv2.imencode(".jpg", img, flags)
    assert ok
    return buf.tobytes()


def _exif(orientation: int) -> bytes:
    """An APP1 segment holding only the EXIF orientation tag, built by hand:

    ``FF E1``, the segment length (big-endian, counting itself), ``Exif\\0\\0``, then a TIFF header
    (``MM`` = big-endian, 42, offset 8 of the first IFD) and one IFD with one entry: tag 0x0112
    (Orientation), type 3 (SHORT), count 1, the value left-justified in the 4-byte field, and a zero
    offset to the next IFD (EXIF 2.3, section 4.6).
    """
    tiff = b"MM" + struct.pack(">HI", 42, 8) + struct.pack(">H", 1)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    return b"\xff\xe1" + struct.pack(">H", 2 + 6 + len(tiff)) + b"Exif\x00\x00" + tiff


def _with_app1(jpg: bytes, app1: bytes) -> bytes:
    return jpg[:2] + app1 + jpg[2:]


def _decode(data: bytes) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


# --- the loader --------------------------------------------------------------------------------


@pytest.mark.parametrize("progressive", [0, 1])
def test_jpeg_with_a_phone_trailer_decodes_as_opencv_decodes_it(tmp_path: Path, progressive: int) -> None:
    jpg = _jpeg(_photo(), IMWRITE_JPEG_PROGRESSIVE=progressive)
    path = tmp_path / "phone.jpg"
    path.write_bytes(jpg + TRAILER)
    got = load_image(path)
    assert np.array_equal(got, _decode(jpg))
    assert np.array_equal(got, cv2.imread(str(path), cv2.IMREAD_COLOR))


@pytest.mark.parametrize("cut", ["half", "last 300 bytes", "inside the headers", "end marker only"])
def test_a_cut_off_jpeg_is_refused_in_one_line(tmp_path: Path, cut: str) -> None:
    jpg = _jpeg(_photo(240, 320, seed=1))
    data = {"half": jpg[: len(jpg) // 2], "last 300 bytes": jpg[:-300], "inside the headers": jpg[:100],
            "end marker only": jpg[:-2]}[cut]
    path = tmp_path / "cut.jpg"
    path.write_bytes(data)
    with pytest.raises(ImageError, match="truncated") as err:
        load_image(path)
    assert "\n" not in str(err.value) and str(path) in str(err.value)


def test_a_cut_off_jpeg_is_refused_though_its_exif_thumbnail_ends(tmp_path: Path) -> None:
    """A phone's EXIF block carries a thumbnail, itself a JPEG with its own end marker: that marker
    must not pass for the photo's."""
    thumb = _jpeg(_photo(24, 32))
    app1 = b"\xff\xe1" + struct.pack(">H", 2 + 6 + len(thumb)) + b"Exif\x00\x00" + thumb
    jpg = _with_app1(_jpeg(_photo(240, 320, seed=2)), app1)
    assert np.array_equal(decode_image(jpg), _decode(jpg))
    with pytest.raises(ImageError, match="truncated"):
        decode_image(jpg[: len(jpg) * 2 // 3], "cut.jpg")


# orientation tag -> the turn that shows the stored pixels upright (EXIF 2.3, 4.6.4 A)
_TURNS = {
    1: lambda a: a,
    3: lambda a: cv2.rotate(a, cv2.ROTATE_180),
    6: lambda a: cv2.rotate(a, cv2.ROTATE_90_CLOCKWISE),
    8: lambda a: cv2.rotate(a, cv2.ROTATE_90_COUNTERCLOCKWISE),
}


@pytest.mark.parametrize("orientation", sorted(_TURNS))
def test_the_exif_orientation_is_applied(tmp_path: Path, orientation: int) -> None:
    jpg = _jpeg(_photo())
    path = tmp_path / "turned.jpg"
    path.write_bytes(_with_app1(jpg, _exif(orientation)))
    got = load_image(path)
    assert np.array_equal(got, _TURNS[orientation](_decode(jpg)))
    assert np.array_equal(got, cv2.imread(str(path), cv2.IMREAD_COLOR))  # as imread shows it
    if orientation == 6:  # stored 160 wide, shown 120 wide with the white block top-right
        assert got.shape == (160, 120, 3) and got[5, -5].min() > 200 and got[5, 5].min() < 200


def test_a_plain_jpeg_is_left_as_stored(tmp_path: Path) -> None:
    jpg = _jpeg(_photo())
    path = tmp_path / "plain.jpg"
    path.write_bytes(jpg)
    assert np.array_equal(load_image(path), _decode(jpg))
    assert load_image(path).shape == (120, 160, 3)


def test_a_12_megapixel_photo_is_read_at_full_size(tmp_path: Path) -> None:
    big = cv2.resize(_photo(), (4032, 3024), interpolation=cv2.INTER_LINEAR)
    path = tmp_path / "phone.jpg"
    path.write_bytes(_jpeg(big, IMWRITE_JPEG_QUALITY=90) + TRAILER)
    got = load_image(path)
    assert got.shape == (3024, 4032, 3) and got.dtype == np.uint8


@pytest.mark.parametrize("ext,params", [(".png", []), (".webp", [cv2.IMWRITE_WEBP_QUALITY, 101])])
def test_png_and_lossless_webp_give_the_pixels_back(tmp_path: Path, ext: str, params: list[int]) -> None:
    img = _photo()
    ok, buf = cv2.imencode(ext, img, params)
    path = tmp_path / f"photo{ext}"
    path.write_bytes(buf.tobytes())
    assert np.array_equal(load_image(path), img)
    path.write_bytes(buf.tobytes() + b"trailing bytes")  # after IEND / past the RIFF length: ignored
    assert np.array_equal(load_image(path), img)


@pytest.mark.parametrize("ext", [".png", ".webp"])
def test_cut_off_png_and_webp_are_refused(tmp_path: Path, ext: str) -> None:
    ok, buf = cv2.imencode(ext, _photo())
    path = tmp_path / f"cut{ext}"
    path.write_bytes(buf.tobytes()[: len(buf) * 3 // 4])
    with pytest.raises(ImageError, match="truncated"):
        load_image(path)


@pytest.mark.parametrize(
    "kind,match",
    [("missing", "no image file"), ("directory", "is a directory"), ("empty", "is empty"),
     ("text", "cannot decode"), ("unknown bytes", "cannot decode")],
)
def test_bad_files_give_one_clear_line(tmp_path: Path, kind: str, match: str) -> None:
    path = tmp_path / "photo.jpg"
    if kind == "directory":
        path.mkdir()
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "text":
        path.write_text("these are not pixels\n")
    elif kind == "unknown bytes":
        path.write_bytes(bytes(range(256)) * 4)
    with pytest.raises(ImageError, match=match) as err:
        load_image(path)
    assert "\n" not in str(err.value)


def test_image_errors_belong_to_the_vision_family() -> None:
    """STYLE.md 8: one family, each error also the builtin it resembles; a folder source skips an
    unreadable image because it is a SourceError."""
    assert issubclass(ImageError, VisionError) and issubclass(ImageError, ValueError)
    assert issubclass(ImageError, SourceError) and issubclass(ImageError, OSError)


# --- through the command line: exit codes and JSON unchanged (DESIGN.md "Contracts") ------------


@pytest.fixture(scope="module")
def board_jpeg() -> bytes:
    return _jpeg(render(starting_spec("wood"), size=(960, 540), seed=3).image, IMWRITE_JPEG_QUALITY=92)


def test_cli_read_a_board_photo_with_a_trailer(tmp_path: Path, board_jpeg: bytes) -> None:
    plain, phone = tmp_path / "plain.jpg", tmp_path / "phone.jpg"
    plain.write_bytes(board_jpeg)
    phone.write_bytes(board_jpeg + TRAILER)
    a, b = runner.invoke(app, ["read", str(plain)]), runner.invoke(app, ["read", str(phone)])
    assert a.exit_code == 0 and b.exit_code == 0, b.output
    assert json.loads(b.stdout) == json.loads(a.stdout) and json.loads(b.stdout)["board_found"]


def test_cli_read_a_board_photo_stored_sideways(tmp_path: Path, board_jpeg: bytes) -> None:
    """Stored turned a quarter to the left with orientation 6 (a phone held upright): read upright."""
    sideways = _jpeg(cv2.rotate(_decode(board_jpeg), cv2.ROTATE_90_COUNTERCLOCKWISE), IMWRITE_JPEG_QUALITY=92)
    path = tmp_path / "upright.jpg"
    path.write_bytes(_with_app1(sideways, _exif(6)))
    r = runner.invoke(app, ["read", str(path)])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert got == read_board(cv2.imread(str(path), cv2.IMREAD_COLOR)).to_json()
    assert got["board_found"] and max(p["image_xy"][0] for p in got["points"]) > 540  # landscape


def test_cli_read_a_12_megapixel_photo(tmp_path: Path, board_jpeg: bytes) -> None:
    big = cv2.resize(_decode(board_jpeg), (4032, 2268), interpolation=cv2.INTER_CUBIC)
    path = tmp_path / "phone.jpg"
    path.write_bytes(_jpeg(big, IMWRITE_JPEG_QUALITY=90) + TRAILER)
    r = runner.invoke(app, ["read", str(path)])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    small = read_board(_decode(board_jpeg)).to_json()

    def stacks(reading: dict) -> list[tuple[str | None, int]]:
        return [(p["colour"], p["count"]) for p in reading["points"]]

    assert stacks(got) == stacks(small) and got["bar"] == small["bar"] and got["off"] == small["off"]
    assert max(p["image_xy"][0] for p in got["points"]) > 2000  # in the photo's own pixels


@pytest.mark.parametrize("command", ["read", "dice"])
def test_cli_unknown_bytes_and_cut_files_exit_2(tmp_path: Path, board_jpeg: bytes, command: str) -> None:
    for name, data in [("x.webp", b"RIFF\x00\x10\x00\x00WEBPVP8 " + b"\x00" * 40),
                       ("x.jpg", board_jpeg[: len(board_jpeg) // 3]), ("x.bin", bytes(range(256)))]:
        path = tmp_path / name
        path.write_bytes(data)
        r = runner.invoke(app, [command, str(path)])
        assert r.exit_code == 2, (name, r.output)
        err = r.stderr.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("tavla:") and "Traceback" not in r.output


def test_cli_read_webp_and_no_board_exits_3(tmp_path: Path) -> None:
    ok, buf = cv2.imencode(".webp", np.full((240, 320, 3), 200, np.uint8))
    path = tmp_path / "blank.webp"
    path.write_bytes(buf.tobytes())
    r = runner.invoke(app, ["read", str(path)])
    assert r.exit_code == 3 and json.loads(r.stdout)["board_found"] is False


def test_cli_dice_photo_with_a_trailer_and_as_webp(tmp_path: Path) -> None:
    from tests.vision.dice.test_photo import STYLES, blur, draw_die, tray

    img = tray(seed=11)
    draw_die(img, 2, (150.0, 180.0), 44, 12, *STYLES["red-white"])
    draw_die(img, 5, (330.0, 170.0), 44, 30, *STYLES["white-black"])
    img = blur(img)
    plain, phone, webp = tmp_path / "plain.jpg", tmp_path / "phone.jpg", tmp_path / "dice.webp"
    plain.write_bytes(_jpeg(img, IMWRITE_JPEG_QUALITY=95))
    phone.write_bytes(plain.read_bytes() + TRAILER)
    ok, buf = cv2.imencode(".webp", img, [cv2.IMWRITE_WEBP_QUALITY, 101])
    webp.write_bytes(buf.tobytes())
    a, b, c = (runner.invoke(app, ["dice", str(p)]) for p in (plain, phone, webp))
    assert a.exit_code == b.exit_code == c.exit_code == 0, (a.output, b.output, c.output)
    assert json.loads(b.stdout) == json.loads(a.stdout)
    dice = json.loads(c.stdout)
    assert len(dice) == 2 and dice[0]["value"] == 2
    assert all(set(d) == {"value", "image_xy", "status", "confidence"} for d in dice)
