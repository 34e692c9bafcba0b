"""Draws haema's app icon (no dependencies: PNG written with zlib) into src-tauri/icons/.

A deep teal rounded square with three stacked cards: core on top, latest and long-term
memory below. `python3 tools/make_icons.py` rewrites the files.
"""

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "src-tauri" / "icons"
SIZE = 512
TEAL = (14, 94, 99, 255)
CARD = (236, 246, 244, 255)
ACCENT = (255, 196, 92, 255)


def rounded(x, y, x0, y0, x1, y1, r):
    if x < x0 or x >= x1 or y < y0 or y >= y1:
        return False
    cx = min(max(x, x0 + r), x1 - r - 1)
    cy = min(max(y, y0 + r), y1 - r - 1)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def pixel(x, y):
    if not rounded(x, y, 16, 16, 496, 496, 96):
        return (0, 0, 0, 0)
    # three cards, the top one with an accent stripe
    for i, (top, width) in enumerate([(112, 300), (232, 340), (352, 300)]):
        x0 = (SIZE - width) // 2
        if rounded(x, y, x0, top, x0 + width, top + 72, 20):
            if i == 0 and x < x0 + 44:
                return ACCENT
            return CARD
    return TEAL


def png(size):
    rows = []
    step = SIZE / size
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            # 2x2 supersampling for smooth edges
            acc = [0, 0, 0, 0]
            for dy in (0.25, 0.75):
                for dx in (0.25, 0.75):
                    p = pixel(int((i + dx) * step), int((j + dy) * step))
                    for k in range(4):
                        acc[k] += p[k]
            row.extend(int(a / 4) for a in acc)
        rows.append(bytes(row))
    raw = b"".join(rows)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size in [("32x32.png", 32), ("128x128.png", 128), ("128x128@2x.png", 256), ("icon.png", 512)]:
        (OUT / name).write_bytes(png(size))
        print("wrote", OUT / name)


if __name__ == "__main__":
    main()
