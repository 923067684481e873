"""(Sessions 19-20; python3 tools/hold_stream_model.py.) Model of Hold's tile stream (hold.cu's
HoldStream: issue / advance / release and the kernel's loop order), checking for every small shape,
and every INFINI_LP_NORM_HOLD_AHEAD: a tile is issued before it is
waited for, a slot is refilled only after its previous tile is done with (a held tile: once phase B
stored it), and every tile is issued exactly once."""
import itertools, sys

def check(rtiles, tiles, slots, ahead_knob):
    held = min(tiles, slots)
    phaseA = rtiles + tiles
    end = phaseA + (tiles - held)
    A = min(ahead_knob, slots) if ahead_knob > 0 else slots
    issued, done = set(), set()
    errors = []
    def issue(s):
        if s >= end:
            return
        if s in issued:
            errors.append(f"tile {s} issued twice")
        prev = s - slots
        if prev >= 0 and prev not in done:
            errors.append(f"tile {s} issued into slot {s % slots} before tile {prev} was done with")
        issued.add(s)
    def wait(s):
        if s not in issued:
            errors.append(f"wait for tile {s} never issued (deadlock)")
    def advance(s):
        if (s + A < phaseA) if A < slots else (s < phaseA - held):
            issue(s + A)
    for s in range(min(A, slots)):     # startRing: stream.ahead() tiles
        issue(s)
    for s in range(rtiles):             # register tiles
        wait(s); done.add(s); advance(s)
    for s in range(rtiles, phaseA):     # the other tiles
        wait(s)
        if s < phaseA - held:
            done.add(s)                 # an L2-part tile: read again in phase B from its own refill
        advance(s)
    for s in range(phaseA - held, phaseA):  # phase B: held tiles stored, then refilled
        done.add(s)
        if held < tiles:
            issue(s + slots)
    for s in range(phaseA, end):        # the L2 part again
        wait(s); done.add(s); issue(s + slots)
    missing = [s for s in range(end) if s not in issued]
    if missing:
        errors.append(f"tiles never issued: {missing[:5]}")
    return errors

bad = 0
for slots, rtiles, tiles, ahead in itertools.product(range(2, 17), range(0, 13), range(0, 41), range(0, 17)):
    errs = check(rtiles, tiles, slots, ahead)
    if errs:
        bad += 1
        if bad <= 5:
            print(f"slots {slots} rtiles {rtiles} tiles {tiles} ahead {ahead}: {errs[:2]}")
print("shapes with errors:", bad)
sys.exit(1 if bad else 0)
