#!/usr/bin/env python3
"""Sign-in timing: does a failed sign-in take as long for an unknown email as for a known one?

One account is created in a temporary store; then `flows run SignIn` runs with a wrong
password, in a fresh process each time as a person would run it, alternately for the known
email and for an unknown one, so both see the same machine. Prints the median of each and
their ratio (about 1 when an unknown email costs the same bcrypt check as a known one).

Usage: signin-timing.py FLOWS_BINARY [RUNS]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    flows = sys.argv[1]
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, FLOWS_HOME=home)
        subprocess.run([flows, "run", "SignUp"], input=b"ada@example.com\ncorrect horse\nAda\n",
                       env=env, capture_output=True, check=True)
        timings = {"known": [], "unknown": []}
        for _ in range(runs):
            for kind, email in (("known", "ada@example.com"), ("unknown", "nobody@example.com")):
                start = time.perf_counter()
                result = subprocess.run(
                    [flows, "run", "SignIn", "--no-input", "--set", f"email={email}", "--set", "password=wrong password"],
                    env=env, capture_output=True)
                timings[kind].append(time.perf_counter() - start)
                if b"wrong email or password" not in result.stderr:
                    sys.exit(f"unexpected sign-in output: {result.stderr!r}")
        known = statistics.median(timings["known"])
        unknown = statistics.median(timings["unknown"])
        print(f"failed sign-in, known email:   {known * 1000:7.1f} ms (median of {runs} processes)")
        print(f"failed sign-in, unknown email: {unknown * 1000:7.1f} ms (median of {runs} processes)")
        print(f"unknown / known: {unknown / known:.2f}")


main()
