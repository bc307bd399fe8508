"""The command's shell: help, unknown commands and game dispatch errors are one line."""

import subprocess
import sys

from companion.cli import GAME_COMMANDS, PLATFORM_COMMANDS, main


def test_help_lists_every_subcommand(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in [*PLATFORM_COMMANDS, *GAME_COMMANDS]:
        assert name in out


def test_unknown_command_is_one_line_error(capsys):
    assert main(["frobnicate"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown command 'frobnicate'" in err[0]


def test_unknown_game_is_one_line_error(capsys):
    assert main(["score", "chess", "x.json"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown game 'chess'" in err[0]


def test_module_entry_point_runs():
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "--version"], capture_output=True, text=True
    )
    assert proc.returncode == 0 and proc.stdout.startswith("companion ")


def test_help_names_the_games_each_tool_serves(capsys):
    from companion.games import games_with_command

    assert "looking-glass" in games_with_command("score")
    assert "mirror-mansion" in games_with_command("predict")
    assert "mirror-mansion" not in games_with_command("score")
    main(["score", "--help"])
    out = capsys.readouterr().out
    assert "games: looking-glass" in out


def test_a_bad_option_names_the_subcommand_once(capsys):
    assert main(["rig", "--bogus"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["companion: error: rig: unrecognized arguments: --bogus"]


def test_every_game_verb_names_itself_once_on_a_bad_option(capsys):
    """Each game's parsers are the shared CommandParser: one line, the subcommand named once."""
    from companion.games import GAMES

    for game in GAMES.values():
        commands = game.module("commands")
        assert commands is not None
        for verb in commands.VERBS:
            assert main([verb, game.id, "--bogus"]) == 2, (verb, game.id)
            err = capsys.readouterr().err.strip().splitlines()
            assert len(err) == 1 and err[0].startswith(f"companion: error: {verb} {game.id}: "), (
                verb,
                game.id,
                err,
            )
