"""`--dist loadgroup` as pytest-xdist documents it, on the pytest this project pins.

Tests that share an expensive module or session fixture (a production server, the offline pack installed in a
phone, one walk over every page) carry `pytest.mark.xdist_group("name")`, and xdist's loadgroup scheduler sends
each group to one worker. xdist 3.8 tells its scheduler the group by appending "@name" to the test's node id in the
worker; pytest 9.2 no longer lets a plugin change a node id that way, so every group was silently spread over the
workers (pytest-dev/pytest-xdist#1386, fix under review), and each worker started the same server again.

Until xdist's fix is released, this plugin hands the groups over beside the node ids instead: each worker writes
{node id: group} to a folder the controller names, and the controller's scheduler (xdist's own LoadGroupScheduling,
through its public hook `pytest_xdist_make_scheduler`) reads them when it splits the work. Once xdist appends its
"@name" again, the scheduler reads that and this plugin can go.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest
from xdist.scheduler import LoadGroupScheduling  # this module is imported only where xdist is (tests/conftest.py)

FOLDER = "xdist_groups_folder"  # the key in each worker's workerinput


def group_of(item: pytest.Item) -> str | None:
    """The group xdist would give the test: its xdist_group names, sorted and joined with "_" (as xdist does)."""
    names = {str(m.args[0] if m.args else m.kwargs.get("name", "default")) for m in item.iter_markers("xdist_group")}
    return "_".join(sorted(names)) or None


class GroupScheduling(LoadGroupScheduling):
    def __init__(self, config: pytest.Config, log, folder: Path) -> None:
        super().__init__(config, log)
        self.folder = folder
        self.groups: dict[str, str] | None = None

    def _split_scope(self, nodeid: str) -> str:
        if nodeid.rfind("@") > nodeid.rfind("]"):
            return super()._split_scope(nodeid)  # xdist's own "@name", once its fix is in
        if self.groups is None:  # first asked once every worker has collected (and written its file)
            self.groups = {}
            for path in sorted(self.folder.glob("*.json")):
                self.groups.update(json.loads(path.read_text(encoding="utf-8")))
        return self.groups.get(nodeid, nodeid)


class Controller:
    """In the process that starts the workers, with --dist loadgroup."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="xdist-groups-"))

    def pytest_configure_node(self, node) -> None:
        node.workerinput[FOLDER] = str(self.folder)

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config: pytest.Config, log):
        return GroupScheduling(config, log, self.folder)

    def pytest_unconfigure(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


class Worker:
    """In each worker of such a run: after collection, its tests' groups, for the controller."""

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        groups = {item.nodeid: group for item in items if (group := group_of(item))}
        folder = Path(config.workerinput[FOLDER])
        written = folder / f"{config.workerinput['workerid']}.json.part"
        written.write_text(json.dumps(groups), encoding="utf-8")
        written.rename(written.with_suffix(""))  # whole or absent, never half-written


def register(config: pytest.Config) -> None:
    """Called from tests/conftest.py's pytest_configure."""
    if not config.pluginmanager.hasplugin("xdist"):
        return
    workerinput = getattr(config, "workerinput", None)
    if workerinput is not None:
        if FOLDER in workerinput:
            config.pluginmanager.register(Worker(), "xdist-groups-worker")
    elif config.getoption("dist", "no") == "loadgroup" and config.getoption("numprocesses", None):
        config.pluginmanager.register(Controller(), "xdist-groups-controller")
