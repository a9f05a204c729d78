#!/usr/bin/env python3
"""Times shell commands in turn, round after round, and prints each one's median wall time, its
ratio to the first command's, and its median CPU time (user + system, of the command and its
children): a fair comparison on a machine whose speed drifts within the hour, where
hyperfine's runs of one command after another are not.

    bench/alternate.py 21 'wc -l FILE' 'OLD -f FILE log' 'NEW -f FILE log'

Each command runs through `sh -c` with its output discarded; the first argument is the number
of rounds (warm the page cache first: `cat FILE >/dev/null`).
"""
import os
import statistics
import subprocess
import sys
import time


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds, commands = int(sys.argv[1]), sys.argv[2:]
    times = [[] for _ in commands]
    cpu = [[] for _ in commands]
    for _ in range(rounds):
        for i, command in enumerate(commands):
            start = time.perf_counter()
            child = subprocess.Popen(["sh", "-c", command], stdout=subprocess.DEVNULL)
            _, status, usage = os.wait4(child.pid, 0)
            times[i].append(time.perf_counter() - start)
            if os.waitstatus_to_exitcode(status) != 0:
                sys.exit(f"failed: {command}")
            cpu[i].append(usage.ru_utime + usage.ru_stime)
    first = statistics.median(times[0])
    for command, runs, used in zip(commands, times, cpu):
        median = statistics.median(runs)
        used = statistics.median(used)
        print(f"{median * 1000:9.1f} ms  {median / first:5.2f}×  cpu {used * 1000:8.1f} ms  {command}")


if __name__ == "__main__":
    main()
