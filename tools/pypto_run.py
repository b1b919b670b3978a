"""`pypto-run`: run a `pto` program in the reference interpreter (not implemented yet)."""

import sys


def main(argv=None) -> int:
    sys.stderr.write("pypto-run: error: the reference interpreter is not implemented yet\n")
    return 1


if __name__ == "__main__":
    sys.exit(main())
