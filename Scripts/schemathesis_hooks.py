"""Schemathesis hooks for Scripts/schemathesis: how the generated requests sign in.

Every request carries the bearer token of the account Scripts/schemathesis signed up
(FLOWS_FUZZ_URL, FLOWS_FUZZ_EMAIL, FLOWS_FUZZ_PASSWORD and FLOWS_FUZZ_TOKEN say which), but
signing out would end that session for every request after it: signOut gets a session of its
own, signed in for the call.
"""

import json
import os
import urllib.request

import schemathesis


def _sign_in() -> str:
    body = json.dumps({"email": os.environ["FLOWS_FUZZ_EMAIL"], "password": os.environ["FLOWS_FUZZ_PASSWORD"]}).encode()
    request = urllib.request.Request(
        os.environ["FLOWS_FUZZ_URL"] + "/sessions", data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)["token"]


@schemathesis.auth()
class Session:
    def get(self, case, context):
        return os.environ["FLOWS_FUZZ_TOKEN"]

    def set(self, case, token, context):
        if case.operation.method.upper() == "DELETE" and case.operation.path == "/sessions/current":
            token = _sign_in()
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}
