"""The webhook receiver of the kit run as a program (`python -m tests.kit.receiver`), as the
benchmarks start it: its answers change at runtime through its answers file, and a SIGTERM
stops it cleanly, its certificates removed."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from tests.kit.receiver import write_answers

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def program(tmp_path):
    answers = tmp_path / "answers.json"
    write_answers(answers, {"/slow": {"delay": 0.6, "status": 202}})
    log = tmp_path / "received.jsonl"
    arguments = ["--port", "0", "--log", str(log), "--answers", str(answers)]
    process = subprocess.Popen(  # noqa: S603 - fixed argument list
        [sys.executable, "-m", "tests.kit.receiver", *arguments],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        info = json.loads(process.stdout.readline())  # type: ignore[union-attr]
        yield process, info, answers, log
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def timed_post(info: dict, path: str) -> tuple[int, float]:
    url = info["url"].rsplit("/", 1)[0] + path
    started = time.monotonic()
    response = requests.post(url, data=b"{}", verify=info["ca_path"], timeout=10)
    return response.status_code, time.monotonic() - started


@pytest.mark.timeout(30)
def test_the_answers_file_is_read_at_each_request_and_sigterm_cleans_up(program):
    process, info, answers, log = program

    status, took = timed_post(info, "/slow")
    assert status == 202 and took >= 0.6
    status, took = timed_post(info, "/other")  # a path the file does not name
    assert status == 200 and took < 0.5

    write_answers(answers, {})  # the slow path recovers
    status, took = timed_post(info, "/slow")
    assert status == 200 and took < 0.5

    paths = [json.loads(line)["path"] for line in log.read_text().splitlines()]
    assert paths == ["/slow", "/other", "/slow"]

    process.terminate()
    assert process.wait(timeout=10) == 0
    assert not Path(info["ca_path"]).exists()  # its temporary directory went with it
