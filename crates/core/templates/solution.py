# {{problem}}: {{title}}
# Judge it with `judge run {{name}}`; `judge show {{problem}}` shows the statement.
import sys


def main():
    # Read all of stdin at once (as bytes: fast) and walk its whitespace-separated tokens.
    tokens = sys.stdin.buffer.read().split()
    pos = 0

    n = int(tokens[pos])
    pos += 1
    answer = n

    # Collect the output and write it once: print() per line is slow for big outputs.
    out = [str(answer)]
    sys.stdout.write("\n".join(out) + "\n")


main()
