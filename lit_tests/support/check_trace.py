"""Read a Chrome trace-event file written by `pypto-run --trace` and print what a viewer would show, checking
the format on the way: `traceEvents` is a list; every complete event ("X") has pid, tid, ts >= 0 and dur > 0;
the slices of one thread do not overlap; every flow start ("s") has a finish ("f") with the same id, and each
end of a flow lies inside a slice of its own thread (Perfetto binds a flow to the enclosing slice).  Exit 1 on
the first violation."""

import json
import sys
from collections import defaultdict


def main(path: str) -> int:
    with open(path) as fh:
        data = json.load(fh)
    events = data["traceEvents"]
    assert isinstance(events, list), "traceEvents is not a list"
    names: dict[tuple, str] = {}
    procs: dict[int, str] = {}
    slices: dict[tuple, list] = defaultdict(list)
    flows: dict[int, dict] = defaultdict(dict)
    for e in events:
        ph = e["ph"]
        if ph == "M":
            if e["name"] == "process_name":
                procs[e["pid"]] = e["args"]["name"]
            else:
                names[(e["pid"], e["tid"])] = e["args"]["name"]
        elif ph == "X":
            assert e["ts"] >= 0 and e["dur"] > 0, f"bad slice {e}"
            slices[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"], e["name"], e.get("cat")))
        elif ph in ("s", "f"):
            flows[e["id"]][ph] = e
        else:
            raise AssertionError(f"unexpected phase {ph!r}")
    for key, sl in slices.items():
        sl.sort()
        for (a0, a1, an, _), (b0, _, bn, _) in zip(sl, sl[1:]):
            assert a1 <= b0, f"overlapping slices {an} and {bn} on {names.get(key)}"

    def inside(pid, tid, ts):
        return any(s0 <= ts < s1 for s0, s1, _, _ in slices[(pid, tid)])

    for fid, ends in flows.items():
        assert set(ends) == {"s", "f"}, f"flow {fid} lacks an end"
        for e in ends.values():
            assert inside(e["pid"], e["tid"], e["ts"]), f"flow {fid} end is not inside a slice of its thread"
    for pid, pname in sorted(procs.items()):
        print(f"process {pname}")
        for (p, tid), tname in sorted(names.items()):
            if p != pid:
                continue
            sl = slices[(p, tid)]
            cats = defaultdict(int)
            for s in sl:
                cats[s[3]] += 1
            print(f"  thread {tname}: " + ", ".join(f"{c} {n}" for c, n in sorted(cats.items())))
    print(f"flows {len(flows)}")
    # the format's timestamps are microseconds, read as modelled cycles: no display unit may say otherwise
    assert "displayTimeUnit" not in data, f"displayTimeUnit {data['displayTimeUnit']!r} contradicts '1 us = 1 modelled cycle'"
    print(f"unit {data['otherData']['unit']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
