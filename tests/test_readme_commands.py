"""The README's commands work as written (issue #18, item 7).

Every ``gammon SUB …`` line of the README's code blocks names a real subcommand whose
options it uses exist (``--help`` lists them); ``scripts/gammon``, the wrapper the README
offers, runs ``.venv/bin/gammon`` with its arguments; the setup scripts say what they do.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def readme_commands() -> list[list[str]]:
    """The ``gammon …`` command lines of the README's code blocks (comments dropped)."""
    blocks = re.findall(r"```[a-z]*\n(.*?)```", README, flags=re.S)
    out = []
    for block in blocks:
        for line in block.splitlines():
            if line.startswith("gammon "):
                out.append(line.split("#", 1)[0].split())
    return out


def test_the_readme_has_gammon_commands_and_says_where_the_command_is() -> None:
    assert len(readme_commands()) >= 5
    assert "source .venv/bin/activate" in README
    assert "scripts/gammon" in README


@pytest.mark.parametrize("words", readme_commands(), ids=lambda w: " ".join(w[:2]))
def test_each_readme_command_and_its_options_exist(words: list[str]) -> None:
    sub = words[1]
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    result = subprocess.run(
        [sys.executable, "-m", "gammon", sub, "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    for word in words[2:]:
        option = word.strip("[]").split("=", 1)[0]
        if option.startswith("--"):
            assert option in result.stdout, f"{' '.join(words)}: {option} is not an option"


def test_the_wrapper_runs_the_virtualenvs_command(tmp_path: Path) -> None:
    # a copy of the wrapper next to a fake .venv/bin/gammon that prints its arguments
    (tmp_path / "scripts").mkdir()
    wrapper = tmp_path / "scripts" / "gammon"
    wrapper.write_text((ROOT / "scripts" / "gammon").read_text(encoding="utf-8"))
    wrapper.chmod(0o755)
    fake = tmp_path / ".venv" / "bin" / "gammon"
    fake.parent.mkdir(parents=True)
    fake.write_text('#!/bin/sh\necho "ran: $*"\n')
    fake.chmod(0o755)
    result = subprocess.run(
        [str(wrapper), "play", "--match", "5"], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "ran: play --match 5"


def test_the_setup_scripts_say_what_they_do() -> None:
    bootstrap = (ROOT / "scripts" / "bootstrap.sh").read_text(encoding="utf-8")
    pip_lines = [i for i, line in enumerate(bootstrap.splitlines()) if "pip install" in line]
    lines = bootstrap.splitlines()
    for i in pip_lines:
        assert lines[i - 1].strip().startswith("echo") or lines[i - 2].strip().startswith("echo"), (
            f"pip runs silently: {lines[i]}"
        )
    assert "echo" in (ROOT / "scripts" / "serve.sh").read_text(encoding="utf-8")
