#!/usr/bin/env python3
"""Start-up time: from process start to the first screen of `flows run SignIn`, and to the
answer of `flows --version`, beside a hello world and a hello world on swift-argument-parser.

Each command is started with pipes; the clock stops at the first byte on the stream that
carries its first output (standard error for flows, which draws screens there; standard output
for the baselines). The commands are run in turn, so they all see the same machine. Prints the
median of each and the ratio of flows to the plain hello world, measured in the same run.

Usage: startup.py BUILD_FOLDER [RUNS]
"""
import os
import select
import statistics
import subprocess
import sys
import tempfile
import time


def first_output(argv, stream, env):
    start = time.perf_counter()
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env
    )
    pipe = process.stderr if stream == "stderr" else process.stdout
    select.select([pipe], [], [])
    elapsed = time.perf_counter() - start
    first = os.read(pipe.fileno(), 4096)
    process.kill()
    process.communicate()
    return elapsed, first


def main():
    build = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 40
    commands = {
        "flows run SignIn": ([os.path.join(build, "flows"), "run", "SignIn"], "stderr", b"Sign in"),
        "flows --version": ([os.path.join(build, "flows"), "--version"], "stdout", b"."),
        "hello world": ([os.path.join(build, "hello")], "stdout", b"Hello"),
        "hello world on argument-parser": ([os.path.join(build, "hello-cli")], "stdout", b"Hello"),
    }
    times = {name: [] for name in commands}
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, FLOWS_HOME=home)
        for argv, stream, _ in commands.values():
            first_output(argv, stream, env)  # warm the page cache
        for _ in range(runs):
            for name, (argv, stream, expected) in commands.items():
                elapsed, text = first_output(argv, stream, env)
                if expected not in text:
                    sys.exit(f"{name}: unexpected first output {text!r}")
                times[name].append(elapsed * 1000)
    medians = {name: statistics.median(values) for name, values in times.items()}
    print(f"Start-up to first output, median of {runs} runs ({build}):")
    for name, median in medians.items():
        print(f"  {name:32} {median:7.2f} ms")
    hello = medians["hello world"]
    parser = medians["hello world on argument-parser"]
    print(f"  ratio flows run SignIn / hello world           {medians['flows run SignIn'] / hello:7.2f}  (target: at most 2)")
    print(f"  ratio flows --version / argument-parser hello  {medians['flows --version'] / parser:7.2f}  (target: at most 1.3)")
    print(f"  ratio argument-parser / hello                  {parser / hello:7.2f}  (the floor for a CLI on it)")


if __name__ == "__main__":
    main()
