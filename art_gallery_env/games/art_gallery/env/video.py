"""Frames (``render_mode="rgb_array"``) to a video file: MP4 (H.264) or GIF.

Gymnasium's ``save_video`` needs moviepy, which pins an old Pillow and brings a 170 MB
ffmpeg binary; this writes the same frames with imageio and PyAV (FFmpeg's libraries in a
wheel), both in the ``render`` extra. The file is written atomically: a crash never
leaves a half-written video under the final name.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from art_gallery_env.files import atomic_path

from .raster import RENDER_EXTRA

VIDEO_SUFFIXES = (".mp4", ".gif")


def save_video(frames: Sequence[np.ndarray], path: str | os.PathLike, fps: float = 2) -> Path:
    """Write HxWx3 uint8 frames of one size to ``path`` (.mp4 or .gif); returns the path."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in VIDEO_SUFFIXES:
        raise ValueError(f"video path must end in one of {list(VIDEO_SUFFIXES)}, got {str(path)!r}")
    if not fps > 0:
        raise ValueError(f"fps must be positive, got {fps!r}")
    stack = _stack(frames)
    try:
        import imageio.v3 as iio
    except ImportError as error:
        raise ImportError(f"saving a video needs imageio: {RENDER_EXTRA}") from error
    if suffix == ".mp4":
        # H.264 with 4:2:0 chroma needs even sides: repeat the last row / column if odd
        pad = ((0, 0), (0, stack.shape[1] % 2), (0, stack.shape[2] % 2), (0, 0))
        stack = np.pad(stack, pad, mode="edge")
        options = {"plugin": "pyav", "codec": "libx264", "fps": fps}
    else:
        options = {"plugin": "pillow", "duration": 1000.0 / fps, "loop": 0}
    with atomic_path(path) as tmp:
        try:
            iio.imwrite(tmp, stack, **options)
        except ImportError as error:  # the plugin's own library (PyAV) is missing
            raise ImportError(f"saving {suffix} needs PyAV: {RENDER_EXTRA}") from error
    return path


def _stack(frames: Sequence[np.ndarray]) -> np.ndarray:
    """One (T, H, W, 3) uint8 array; a clear error names the first bad frame."""
    if len(frames) == 0:
        raise ValueError("no frames to save")
    first = np.asarray(frames[0])
    for i, frame in enumerate(frames):
        frame = np.asarray(frame)
        if frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError(
                f"frame {i} must be an HxWx3 uint8 array, got {frame.dtype} {frame.shape}"
            )
        if frame.shape != first.shape:
            raise ValueError(f"frame {i} has shape {frame.shape}, frame 0 has {first.shape}")
    return np.stack(frames)
