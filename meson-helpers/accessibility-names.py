#!/usr/bin/python3
"""Reads Quire's window as a screen reader does, over AT-SPI, and names its unnamed controls.

    accessibility-names.py QUIRE LIBRARY [--conflict-dialog]

Starts QUIRE over LIBRARY with GTK's accessibility on (without GTK_A11Y=none, NO_AT_BRIDGE), waits
for it on the accessibility bus (at-spi2-core starts the bus through the session bus), walks its
tree, then presses Ctrl+N (xdotool, XTEST) so that a new article opens in the editor, and walks it
again. Prints one JSON object: how many nodes it read, every visible focusable button with no name
of its own (GTK 4.8 names an unlabelled button by its type, "GtkImage"), every visible text field,
text view or list with no name ("unnamedFields"), the names of the fields and lists ("fields":
role and name), and how many list rows there are and which say nothing (GTK 4.8 cannot name a list
item itself; a row is described when a widget inside it has a name). A drop-down's inner button is
left to its combo box, which a screen reader announces. Exits 1 when a button or field has no name
or a row says nothing, 2 when Quire never appeared on the bus.

With --conflict-dialog (LIBRARY holds an open conflict) it presses Alt+R instead, the conflict
banner's Resolve, and reads the dialog: "relations" lists every labelled-by and described-by
relation a screen reader reads there (the node's role and name, the relation, the targets' names).
"""
import json
import os
import subprocess
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi  # noqa: E402


def unnamed(node):
    name = (node.get_name() or "").strip()
    return not name or name.startswith(("Gtk", "Adw"))


def described(node, depth=0):
    """Whether `node` or a widget close inside it has a name a person can hear."""
    if node is None or depth > 2:
        return False
    if depth > 0 and not unnamed(node):
        return True
    return any(described(node.get_child_at_index(index), depth + 1) for index in range(node.get_child_count()))


# Roles of the controls a writer types into or chooses from, which need a name of their own.
FIELD_ROLES = {"text", "entry", "password text", "list", "list box", "document web", "spin button"}


def read(application):
    """Walks the tree under `application`: the report's counts and lists."""
    report = {"nodes": 0, "unnamedButtons": [], "unnamedFields": [], "fields": [], "rows": 0, "silentRows": []}
    pending = [(application, 0)]
    while pending:
        node, depth = pending.pop()
        if node is None or depth > 80:
            continue
        report["nodes"] += 1
        role = node.get_role_name()
        states = node.get_state_set()
        # GTK 4.8 sets VISIBLE but never SHOWING.
        visible = states.contains(Atspi.StateType.VISIBLE)
        parent = node.get_parent()
        in_combo_box = parent is not None and parent.get_role_name() == "combo box" and not unnamed(parent)
        if ("button" in role and states.contains(Atspi.StateType.FOCUSABLE) and states.contains(Atspi.StateType.VISIBLE)
                and unnamed(node) and not in_combo_box):
            report["unnamedButtons"].append({"role": role, "name": node.get_name(), "parent": parent.get_role_name() if parent else None})
        if role in FIELD_ROLES and visible:
            if unnamed(node):
                report["unnamedFields"].append({"role": role, "parent": parent.get_role_name() if parent else None})
            else:
                report["fields"].append({"role": role, "name": node.get_name()})
        if role == "list item" and parent is not None and parent.get_role_name() == "list":
            report["rows"] += 1
            if not described(node):
                report["silentRows"].append(parent.get_name())
        for index in range(node.get_child_count()):
            pending.append((node.get_child_at_index(index), depth + 1))
    return report


def press(process, key):
    """Focuses Quire's window and presses `key` (xdotool, XTEST), as a writer would."""
    for _ in range(100):
        found = subprocess.run(["xdotool", "search", "--all", "--onlyvisible", "--pid", str(process.pid), "--name", "^Quire$"],
                               capture_output=True, text=True)
        windows = found.stdout.split()
        if windows and subprocess.run(["xdotool", "windowfocus", "--sync", windows[-1]]).returncode == 0:
            subprocess.run(["xdotool", "key", key], check=True)
            return True
        time.sleep(0.1)
    return False


RELATIONS = {Atspi.RelationType.LABELLED_BY: "labelled-by", Atspi.RelationType.DESCRIBED_BY: "described-by"}


def relations(window):
    """Every labelled-by and described-by relation under `window`: role, name, relation, target names."""
    found = []
    pending = [(window, 0)]
    while pending:
        node, depth = pending.pop()
        if node is None or depth > 80:
            continue
        for relation in node.get_relation_set() or []:
            kind = RELATIONS.get(relation.get_relation_type())
            if kind:
                targets = [relation.get_target(index).get_name() for index in range(relation.get_n_targets())]
                found.append({"role": node.get_role_name(), "name": node.get_name(), "relation": kind, "targets": targets})
        for index in range(node.get_child_count()):
            pending.append((node.get_child_at_index(index), depth + 1))
    return found


def conflict_dialog(process, application):
    """Presses Alt+R and reads the relations of the window named Resolve Conflict once it is on the bus."""
    if not press(process, "alt+r"):
        return {"error": "could not focus the window to press Alt+R"}
    for _ in range(600):
        for index in range(application.get_child_count()):
            window = application.get_child_at_index(index)
            # The dialog's texts come with its first frames: its relations are read once they hold targets.
            if window is not None and window.get_name() == "Resolve Conflict":
                found = relations(window)
                if any(relation["targets"] and relation["role"] != "dialog" for relation in found):
                    return {"relations": found}
        time.sleep(0.1)
    return {"error": "the conflict dialog never appeared on the accessibility bus"}


def main():
    quire, library = sys.argv[1], sys.argv[2]
    reads_conflict_dialog = "--conflict-dialog" in sys.argv[3:]
    environment = dict(os.environ)
    environment.pop("GTK_A11Y", None)
    environment.pop("NO_AT_BRIDGE", None)
    process = subprocess.Popen([quire, "--library", library], env=environment, stderr=subprocess.DEVNULL)
    try:
        application = None
        for _ in range(600):
            desktop = Atspi.get_desktop(0)
            for index in range(desktop.get_child_count()):
                child = desktop.get_child_at_index(index)
                if child is not None and (child.get_name() or "").lower().startswith("quire") and child.get_child_count() > 0:
                    application = child
            if application is not None:
                break
            time.sleep(0.1)
        if application is None:
            print(json.dumps({"error": "quire never appeared on the accessibility bus"}))
            return 2
        if reads_conflict_dialog:
            report = conflict_dialog(process, application)
            print(json.dumps(report))
            return 2 if "error" in report else 0
        # The window's widgets come with its first frames.
        time.sleep(2)
        report = read(application)
        if not press(process, "ctrl+n"):
            print(json.dumps({"error": "could not focus the window to press Ctrl+N"}))
            return 2
        time.sleep(3)
        editing = read(application)
        report["nodes"] += editing["nodes"]
        report["rows"] = max(report["rows"], editing["rows"])
        for key in ("unnamedButtons", "unnamedFields", "fields", "silentRows"):
            report[key] += [item for item in editing[key] if item not in report[key]]
        print(json.dumps(report))
        failed = report["unnamedButtons"] or report["unnamedFields"] or report["silentRows"]
        return 1 if failed else 0
    finally:
        process.terminate()
        process.wait()


if __name__ == "__main__":
    sys.exit(main())
