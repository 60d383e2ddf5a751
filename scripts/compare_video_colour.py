"""The comparison scripts/compare-video-colour prints (see there).

Usage: compare_video_colour.py VISION_TASKS TESTDATA WORK, where WORK holds clip_*.mp4 and
clip_*.ours.rgb (our frames, 224x224 RGB, one after another) from VideoColourTests.
"""
import glob
import json
import os
import statistics
import subprocess
import sys

import cv2
import numpy as np

SIZE = 224
tool, testdata, work = sys.argv[1:4]
MODELS = {'quant': 'mobilenet_v1_0.25_224_quant.tflite', 'float': 'mobilenet_v1_0.25_224_1_metadata_1.tflite'}


def ffmpeg_frames(clip, flags=None, filters=None):
    command = ['ffmpeg', '-v', 'error', '-nostdin', '-i', clip]
    command += ['-sws_flags', flags] if flags else []
    command += ['-vf', filters] if filters else []
    raw = subprocess.run(command + ['-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'], capture_output=True, check=True).stdout
    return np.frombuffer(raw, np.uint8).reshape(-1, SIZE, SIZE, 3)


def opencv_frames(clip):
    capture, frames = cv2.VideoCapture(clip), []
    while True:
        ok, frame = capture.read()
        if not ok:
            return np.stack(frames)
        frames.append(frame[:, :, ::-1])  # BGR -> RGB


def difference(a, b):
    d = np.abs(a.astype(int) - b.astype(int))
    return f'max {d.max():3d} mean {d.mean():.3f}'


def scores(frames, folder, model):
    """All 1001 scores of each frame, by vision-tasks on the frames written as PNG (exact)."""
    os.makedirs(folder, exist_ok=True)
    for index, frame in enumerate(frames):
        cv2.imwrite(os.path.join(folder, f'{index:03d}.png'), np.ascontiguousarray(frame[:, :, ::-1]))
    out = subprocess.run([tool, 'classify', '--model', os.path.join(testdata, 'models', MODELS[model]),
                          '--format', 'jsonl', '--max-results', '-1', '--score-threshold', '-1e9', folder],
                         capture_output=True, check=True, text=True).stdout
    rows = {}
    for line in out.splitlines():
        record = json.loads(line)
        categories = record['classifications'][0]['categories']
        rows[os.path.basename(record['image'])] = {c['index']: c['score'] for c in categories}
    return [rows[name] for name in sorted(rows)]


def agreement(ours, theirs, step):
    """Top-1 agreement, and |score difference| of our top-1 category (in `step`s)."""
    same, deltas = 0, []
    for a, b in zip(ours, theirs):
        top = max(a, key=a.get)
        same += top == max(b, key=b.get)
        deltas.append(abs(a[top] - b[top]) / step)
    return f'top-1 {same}/{len(ours)}, score diff median {statistics.median(deltas):.2f} max {max(deltas):.2f}'


for clip in sorted(glob.glob(os.path.join(work, 'clip_*.mp4'))):
    name = os.path.basename(clip)[:-4]
    ours = np.fromfile(os.path.join(work, name + '.ours.rgb'), np.uint8).reshape(-1, SIZE, SIZE, 3)
    plain, opencv = ffmpeg_frames(clip), opencv_frames(clip)
    exact = ffmpeg_frames(clip, 'neighbor+accurate_rnd+full_chroma_int+bitexact')
    interpolated = ffmpeg_frames(clip, 'bicubic+accurate_rnd+full_chroma_int+bitexact')
    print(f'{name} ({len(ours)} frames; OpenCV {cv2.__version__} gave {len(opencv)})')
    print(f'  pixels vs OpenCV VideoCapture        {difference(ours, opencv)}')
    print(f'  pixels vs ffmpeg -pix_fmt rgb24      {difference(ours, plain)}')
    print(f'  OpenCV vs ffmpeg -pix_fmt rgb24      {difference(opencv, plain)}')
    print(f'  pixels vs swscale exact, nearest chroma      {difference(ours, exact)}')
    print(f'  pixels vs swscale exact, interpolated chroma {difference(ours, interpolated)}')
    untagged = ffmpeg_frames(clip, filters='scale=in_color_matrix=bt601:in_range=tv')
    print(f'  pixels vs ffmpeg ignoring the tags (BT.601 limited) {difference(ours, untagged)}')
    for model, step in (('quant', 1 / 256), ('float', 1e-3)):
        unit = 'steps' if model == 'quant' else 'x 1e-3'
        sets = {label: scores(frames, os.path.join(work, 'png', name, label), model)
                for label, frames in (('ours', ours), ('opencv', opencv), ('ffmpeg', plain), ('exact', exact))}
        print(f'  {model:5s} vs OpenCV: {agreement(sets["ours"], sets["opencv"], step)} ({unit})')
        print(f'  {model:5s} vs ffmpeg: {agreement(sets["ours"], sets["ffmpeg"], step)} ({unit})')
        print(f'  {model:5s} swscale exact rounding vs OpenCV: {agreement(sets["exact"], sets["opencv"], step)} ({unit})')
