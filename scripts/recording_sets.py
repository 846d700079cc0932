"""Readers of public phone-recording data sets, for scripts/bench-recordings.

Each reader yields Recording values: the samples in orientd's frame (m/s², gravity included, x
and y negated from Android's sensor frame), the stretches of constant posture (every change
there is one the person did not make), and the labelled posture changes, if the set has any.
"""
import collections
import gzip
import os
import re

GRAVITY = 9.80665

# postures: [(start s, end s, placement)]; changes: [(start s, end s, label)].
# person: who carried the phone (Oxford: the folder's subject; HAPT: "user NN").
Recording = collections.namedtuple("Recording", "name person samples postures changes")


def find(directory, margin, people=None):
    """The recordings in `directory`, of whichever set it holds, of `people` only if given
    (a set of `Recording.person` values); [] if none."""
    recordings = None
    for raw in (os.path.join(directory, "RawData"), directory):
        if os.path.isfile(os.path.join(raw, "labels.txt")):
            recordings = hapt(raw)
            break
    if recordings is None:
        recordings = oxford(directory, margin)
    return [recording for recording in recordings if people is None or recording.person in people]


def people_named(text):
    """The people a --people argument names: comma-separated HAPT user numbers or ranges
    ("1-8", "9,10,12-15", as "user NN") or Oxford subject names ("Jamie")."""
    people = set()
    for part in text.split(","):
        part = part.strip()
        bounds = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if bounds:
            first, last = int(bounds.group(1)), int(bounds.group(2) or bounds.group(1))
            people.update("user %02d" % number for number in range(first, last + 1))
        elif part:
            people.add(part)
    return people


def oxford(directory, margin):
    """The Oxford step counter data set (CC BY 4.0): a folder per recording, named
    PHONE_SUBJECT_FLOOR_PLACEMENT_N, each with accelerometer.csv.gz ("timestamp_ns,accuracy,x,y,z").
    The phone is put in place, carried in one posture and taken out: the first and last `margin`
    seconds are left out."""
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name, "accelerometer.csv.gz")
        if not os.path.isfile(path):
            continue
        samples = []
        with gzip.open(path, "rt") as lines:
            for line in lines:
                fields = line.strip().split(",")
                if len(fields) != 5:
                    continue
                try:
                    ns, x, y, z = int(fields[0]), float(fields[2]), float(fields[3]), float(fields[4])
                except ValueError:
                    continue
                samples.append((ns, -x, -y, z))
        if not samples:
            continue
        samples.sort()
        first = samples[0][0]
        samples = [((ns - first) / 1e9, x, y, z) for ns, x, y, z in samples]
        fields = name.split("_")
        placement = fields[3] if len(fields) > 3 else name
        start, end = margin, samples[-1][0] - margin
        postures = [(start, end, placement)] if end > start else []
        person = fields[1] if len(fields) > 1 else name
        yield Recording(name, person, samples, postures, [])


# HAPT's activity numbers (its activity_labels.txt).
HAPT_POSTURES = {1: "walking", 2: "walking upstairs", 3: "walking downstairs", 4: "sitting", 5: "standing", 6: "lying"}
HAPT_CHANGES = {7: "stand to sit", 8: "sit to stand", 9: "sit to lie", 10: "lie to sit", 11: "stand to lie", 12: "lie to stand"}
HAPT_RATE = 50.0
HAPT_FILE = re.compile(r"acc_exp(\d+)_user(\d+)\.txt$")


def hapt(raw, settle=4.0):
    """UCI's Smartphone-Based Recognition of Human Activities and Postural Transitions (HAPT, CC BY
    4.0): a phone on the waist, RawData/acc_expNN_userNN.txt ("x y z" in g, 50 Hz) and
    RawData/labels.txt ("experiment user activity first_sample last_sample"). Activities 1-6 are
    postures, 7-12 changes between them. The first `settle` seconds of a posture belong to the
    change before it (the judge's time to decide it) and are left out."""
    labels = collections.defaultdict(list)
    with open(os.path.join(raw, "labels.txt")) as lines:
        for line in lines:
            fields = line.split()
            if len(fields) == 5 and all(field.isdigit() for field in fields):
                experiment, user, activity, first, last = map(int, fields)
                labels[(experiment, user)].append((activity, (first - 1) / HAPT_RATE, (last - 1) / HAPT_RATE))
    for name in sorted(os.listdir(raw)):
        match = HAPT_FILE.match(name)
        if not match:
            continue
        samples = []
        with open(os.path.join(raw, name)) as lines:
            for index, line in enumerate(lines):
                fields = line.split()
                try:
                    x, y, z = (float(field) * GRAVITY for field in fields[:3])
                except ValueError:  # not three numbers
                    continue
                samples.append((index / HAPT_RATE, -x, -y, z))
        if not samples:
            continue
        last = samples[-1][0]
        postures, changes = [], []
        # In time order; a label reaching past the samples is cut at the last one.
        for activity, start, end in sorted(labels.get((int(match.group(1)), int(match.group(2))), []), key=lambda label: label[1]):
            end = min(end, last)
            if activity in HAPT_POSTURES and end - start > settle:
                postures.append((start + settle, end, "waist, " + HAPT_POSTURES[activity]))
            elif activity in HAPT_CHANGES and end > start:
                changes.append((start, end, HAPT_CHANGES[activity]))
        yield Recording(name[:-len(".txt")], "user %02d" % int(match.group(2)), samples, postures, changes)
