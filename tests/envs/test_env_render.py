"""Rendering: a text picture of what the agent's seat may see, from the event log."""

from env_helpers import make

from shoot_pontoon_env.cards import parse_card
from shoot_pontoon_env.engine import EventKind
from shoot_pontoon_env.envs.render import event_line


def test_ansi_render_shows_seats_own_cards_stakes_shoot_and_payments_but_no_hidden_card():
    env = make(num_players=3, render_mode="ansi")
    env.reset(seed=0, options={"stacked": "TS 9C TD 8H 7D 7C"})
    env.step(2)  # stake 4
    env.step(5)  # Shoot bet 2
    text = env.render()
    assert "you are seat 1 (punter)" in text and "Shoot 50" in text
    assert "TS 8H" in text and "stake 4, Shoot bet 2" in text and "<- to act" in text
    for hidden in ("9C", "7D", "TD", "7C"):  # seat 2's and the banker's face-down cards
        assert hidden not in text
    assert "seat 2 hand 1 gets a card face down" in text
    env.step(8)  # stick on 18; seat 2 and the banker play; the showdown shows every card
    text = env.render()
    assert "TD 7C" in text and "chips seat 0 -> seat 1 (banker pays)" in text and "shoot -> seat 1" in text


def test_the_banker_sees_its_own_cards_in_the_render():
    env = make("ShootPontoonBanker-v0", num_players=2, punters="threshold", render_mode="ansi")
    env.reset(seed=0, options={"stacked": "TS 9C 7H 7D"})
    text = env.render()
    assert "seat 0 (you, banker" in text and "9C 7D (16)" in text and "TS" not in text


def test_human_render_prints_and_returns_none(capsys):
    env = make(render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    assert "you are seat 1" in capsys.readouterr().out
    env.step(1)
    assert "log of this deal" in capsys.readouterr().out  # human mode renders after each step


def test_event_lines_hide_other_seats_face_down_cards():
    from shoot_pontoon_env.engine.events import Event

    card = Event(EventKind.CARD, seat=2, hand=1, card=parse_card("KC"), face_up=False)
    assert event_line(card, viewer=1) == "seat 2 hand 1 gets a card face down"
    assert event_line(card, viewer=2) == "seat 2 hand 1 gets KC face down"
