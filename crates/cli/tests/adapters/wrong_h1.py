#!/usr/bin/env python3
"""A flawed adapter: a proxy in front of a real adapter whose fnv1a-utf16-v1 `positions`
answers carry h1 plus one (its positions left as they are).

    python3 wrong_h1.py -- CMD [ARGS...]

Everything else passes unchanged. Standard library only.
"""

import sys

from proxy import relay


def main():
    if len(sys.argv) < 3 or sys.argv[1] != "--":
        sys.exit("usage: wrong_h1.py -- CMD [ARGS...]")

    def rewrite(request, answer):
        if (request is not None and request.get("protocol") == "fnv1a-utf16-v1"
                and request.get("op") == "positions"
                and isinstance(answer.get("result"), dict)
                and isinstance(answer["result"].get("h1"), int)):
            answer["result"]["h1"] = (answer["result"]["h1"] + 1) % 2**32
            return answer
        return None

    relay(sys.argv[2:], rewrite)


if __name__ == "__main__":
    main()
