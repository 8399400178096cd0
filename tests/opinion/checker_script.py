"""A second-opinion command for the tests: reads the request on stdin, answers by argv.

checker_script.py say DECISION       verdict DECISION, its reason naming the call's tool
checker_script.py shell-word WORD    deny a shell call whose command contains WORD, else allow
checker_script.py garbage            print text that is not JSON
checker_script.py fail               exit 3 without a verdict
checker_script.py hang PIDFILE       write its pid to PIDFILE, then never answer
checker_script.py record FILE        write the request to FILE, then allow
"""

import json
import os
import sys
import time


def main() -> int:
    action = sys.argv[1]
    request = json.loads(sys.stdin.read())
    call = request["call"]
    if action == "say":
        print(json.dumps({"decision": sys.argv[2], "reason": f"checked a {call['tool']} call"}))
    elif action == "shell-word":
        command = call["args"].get("command", "")
        bad = call["tool"] == "shell" and sys.argv[2] in command
        print(
            json.dumps(
                {
                    "decision": "deny" if bad else "allow",
                    "reason": f"{sys.argv[2]!r} {'found' if bad else 'not found'}",
                }
            )
        )
    elif action == "garbage":
        print("I think it is fine")
    elif action == "fail":
        return 3
    elif action == "hang":
        with open(sys.argv[2], "w") as handle:
            handle.write(str(os.getpid()))
        while True:
            time.sleep(3600)
    elif action == "record":
        with open(sys.argv[2], "w") as handle:
            json.dump(request, handle)
        print(json.dumps({"decision": "allow", "reason": "recorded"}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
