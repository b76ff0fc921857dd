"""Rendering: a text picture of what the agent's seat may see, from the event log."""

import gymnasium as gym
import numpy as np
import pytest
from env_helpers import CONFIGS, config_id, make

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
    assert "you are seat 1" in capsys.readouterr().out  # human mode renders after each step
    logged = make(render_mode="human", engine="table")  # the Table keeps the deal's log, and prints it
    logged.reset(seed=0)
    logged.step(1)
    assert "log of this deal" in capsys.readouterr().out


def test_event_lines_hide_other_seats_face_down_cards():
    from shoot_pontoon_env.engine.events import Event

    card = Event(EventKind.CARD, seat=2, hand=1, card=parse_card("KC"), face_up=False)
    assert event_line(card, viewer=1) == "seat 2 hand 1 gets a card face down"
    assert event_line(card, viewer=2) == "seat 2 hand 1 gets KC face down"


# ---------------------------------------------------------------------------------------- rgb_array
def rgb_env(env_id="ShootPontoon-v0", **kwargs):
    return make(env_id, render_mode="rgb_array", **kwargs)


def test_rgb_array_is_a_fixed_size_picture_that_changes_with_the_table():
    from shoot_pontoon_env.envs.picture import HEIGHT, WIDTH

    env = rgb_env(num_players=3)
    env.reset(seed=0, options={"stacked": "TS 9C TD 8H 7D 7C"})
    first = env.render()
    assert first.shape == (HEIGHT, WIDTH, 3) and first.dtype == np.uint8
    assert np.array_equal(first, env.render())  # drawing changes nothing
    env.step(2)  # stake 4
    assert not np.array_equal(first, env.render())


def test_rgb_array_shows_only_what_the_seat_may_see():
    """Two deals that differ only in cards the agent may not see (seat 2's face-down card and the
    banker's hole card) give the same picture; a different card of the agent's own does not."""
    pictures = {}
    for name, stacked in {"dealt": "TS 9C TD 8H 7D 7C", "hidden differ": "TS 9C TD 8H 6D 6C",
                          "own differs": "TS 9C TD 7H 7D 7C"}.items():
        env = rgb_env(num_players=3)
        env.reset(seed=0, options={"stacked": stacked})
        env.step(2)  # stake 4
        env.step(5)  # Shoot bet 2: the agent's turn to play, seat 2 and the banker hold face-down cards
        pictures[name] = env.render()
    assert np.array_equal(pictures["dealt"], pictures["hidden differ"])
    assert not np.array_equal(pictures["dealt"], pictures["own differs"])


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_rgb_array_renders_every_state_of_random_episodes(config):
    env_id, kwargs = config
    env = rgb_env(env_id, **kwargs)
    rng = np.random.default_rng(0)
    for seed in range(3):
        obs, info = env.reset(seed=seed)
        done = False
        while not done:
            assert env.render().shape == (540, 960, 3)
            obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        assert env.render().shape == (540, 960, 3)


def test_sb3_make_vec_env_by_id_asks_for_rgb_array_and_gets_pictures():
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.env_util import make_vec_env

    for env_id in ("ShootPontoon-v0", "shoot_pontoon_env:ShootPontoon-Playtech-v0"):
        vec = make_vec_env(env_id, n_envs=2, seed=0)
        assert vec.render_mode == "rgb_array"
        vec.reset()
        assert all(image.shape == (540, 960, 3) for image in vec.get_images())
        masks = np.stack(vec.env_method("action_masks"))
        assert masks.shape == (2, vec.action_space.n) and masks.any(axis=1).all()
    model = MaskablePPO("MlpPolicy", vec, n_steps=32, batch_size=32, n_epochs=1, device="cpu", seed=0)
    model.learn(64)


def test_record_video_writes_a_short_video(tmp_path):
    pytest.importorskip("moviepy")
    from gymnasium.wrappers import RecordVideo

    env = RecordVideo(gym.make("ShootPontoon-v0", render_mode="rgb_array"), str(tmp_path / "videos"),
                      episode_trigger=lambda episode: True, disable_logger=True)
    rng = np.random.default_rng(0)
    frames = 0
    for seed in range(2):
        obs, info = env.reset(seed=seed)
        done, frames = False, frames + 1
        while not done:
            obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            frames += 1
    env.close()
    videos = sorted((tmp_path / "videos").glob("*.mp4"))
    assert len(videos) == 2 and all(v.stat().st_size > 1000 for v in videos)
    assert all(v.read_bytes()[4:8] == b"ftyp" for v in videos)  # an MP4 container
    from moviepy import VideoFileClip

    recorded = 0
    for video in videos:
        with VideoFileClip(str(video)) as clip:
            assert clip.size == [960, 540]
            recorded += clip.reader.n_frames
    assert recorded == frames


def test_gymnasium_play_drives_the_env_by_keys(monkeypatch):
    """``gymnasium.utils.play.play`` with ``wait_on_player=True`` (a turn-based game): scripted key
    presses of legal actions, through the env's own key map, play two episodes."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame = pytest.importorskip("pygame")
    from gymnasium.utils import play as play_module

    from shoot_pontoon_env.envs.picture import KEYS

    env = gym.make("ShootPontoon-v0", render_mode="rgb_array")
    steps, episodes, pressed = [], [0], []

    def scripted_events():
        if episodes[0] >= 2:
            return [pygame.event.Event(pygame.QUIT)]
        if pressed:
            return [pygame.event.Event(pygame.KEYUP, key=pressed.pop())]
        legal = np.flatnonzero(env.unwrapped.action_masks())
        key = ord(KEYS[int(legal[-1])])
        pressed.append(key)
        return [pygame.event.Event(pygame.KEYDOWN, key=key)]

    def callback(obs, next_obs, action, reward, terminated, truncated, info):
        steps.append((action, info["illegal_action"]))
        episodes[0] += int(terminated)

    monkeypatch.setattr(play_module.pygame.event, "get", scripted_events)
    play_module.play(env, wait_on_player=True, fps=1000, callback=callback, seed=0)
    assert episodes[0] == 2 and len(steps) >= 4
    assert not any(illegal for _, illegal in steps)


# ------------------------------------------------------------------------- words, labels, the new picture
def act(env, label: str) -> None:
    env.step(env.action_table.labels.index(label))


def test_the_ansi_picture_names_a_pontoon_a_five_card_trick_and_a_bust():
    env = make(num_players=3, render_mode="ansi", engine="table")
    env.reset(seed=0, options={"stacked": "AS 9C TD KH 7D 7C"})  # you: AS KH, a Pontoon
    act(env, "stake 4")
    act(env, "Shoot bet 2")
    text = env.render()
    assert "hand 0: AS KH             (a Pontoon)  stake 4, Shoot bet 2" in text and "(21)" not in text
    assert "seat 0 (banker, chips 946): TD 7C (17)" in text
    env.reset(seed=0, options={"stacked": "2C 9C TD 3C 7D 7C 2D 3D 4H"})  # you: 2C 3C, then 2D 3D 4H
    act(env, "stake 2")
    act(env, "no Shoot bet")
    for _ in range(3):
        act(env, "twist")
    assert "hand 0: 2C 3C 2D 3D 4H    (a Five Card Trick (14))" in env.render()
    env.reset(seed=0, options={"stacked": "TC 9C TD 6C 7D 7C KD"})  # you: TC 6C, twist KD
    act(env, "stake 2")
    act(env, "no Shoot bet")
    act(env, "twist")
    assert "hand 0: TC 6C KD          (bust (26))  stake 2  [settled -2]" in env.render()


def test_a_casino_tables_banker_is_the_dealer_in_both_pictures():
    from shoot_pontoon_env.envs.picture import render_rgb, result_line

    env = make("ShootPontoon-Playtech-v0", num_players=2, render_mode="ansi", engine="table")
    env.reset(seed=0, options={"stacked": "TS 9C 8H 8D KC"})  # you: TS 8H; the dealer 9C 8D
    act(env, "stake 2")
    act(env, "stick")
    text = env.render()
    assert "seat 0 (dealer, chips" in text and "banker" not in text
    assert result_line(env.window()) == "result: you win 2 with 18 against the dealer's 17"
    assert render_rgb(env.window()).shape == (540, 960, 3)


def test_the_log_keeps_each_hands_label_across_a_split():
    env = make(num_players=3, render_mode="ansi", engine="table")
    env.reset(seed=0, options={"stacked": "8S 9C TD 8H 7D 7C 3C 2D"})  # you: 8S 8H, split
    act(env, "stake 2")
    act(env, "no Shoot bet")
    act(env, "split")
    text = env.render()
    assert "hand 0a: 8S 3C" in text and "hand 0b: 8H" in text and "hand 1: ?? ??" in text
    assert "seat 1 hand 0b stakes 2 (split)" in text and "seat 1 hand 0a gets 3C face down" in text
    assert "hand 2" not in text  # seat 2's hand is index 2 at the Table now, and still hand 1 in the picture


def test_the_rgb_end_frame_has_a_result_line():
    from shoot_pontoon_env.envs import picture

    env = rgb_env(num_players=3, engine="table")
    env.reset(seed=0, options={"stacked": "AS 9C TD KH 7D 7C"})
    act(env, "stake 4")
    assert picture.result_line(env.window()) == ""  # no result while the deal is played
    act(env, "Shoot bet 2")  # a Pontoon: the deal plays out
    window = env.window()
    assert window.episode_over
    assert picture.result_line(window) == "result: you win 10 with a Pontoon against the banker's 17"
    frame = env.render()
    original = picture.result_line
    try:
        picture.result_line = lambda window: ""
        assert not np.array_equal(frame, env.render())  # the line is drawn
    finally:
        picture.result_line = original


def test_the_rgb_cards_are_large_with_their_suits_drawn_and_panels_fit_their_hands():
    from PIL import Image, ImageDraw

    from shoot_pontoon_env.envs import picture

    size = picture.CARD_SIZES[0]
    assert size.width >= 48 and size.height >= 64
    for card, colour in ((parse_card("9H"), picture.RED), (parse_card("9S"), picture.BLACK)):
        image = Image.new("RGB", (size.width + 2, size.height + 2), picture.FELT)
        picture._draw_card(ImageDraw.Draw(image), 0, 0, card, size)
        ink = (np.asarray(image) == colour).all(axis=2).sum()
        assert ink > 0.12 * size.width * size.height  # a large suit shape, not a letter
    # four seats: every panel as tall as its one hand at the largest size; ten seats still fit the frame
    card, heights = picture._layout([1, 1], 400)
    assert card == picture.CARD_SIZES[0] and heights == [picture._panel_height(1, card)] * 2
    card, heights = picture._layout([1, 1, 1, 1], 450)
    assert sum(heights) + picture.GAP * 4 <= 450


def test_rendering_draws_no_random_numbers():
    """The same seed deals the same cards whatever the render mode."""
    played = {}
    for mode in (None, "ansi", "rgb_array"):
        env = make(num_players=3, render_mode=mode, engine="table")
        obs, info = env.reset(seed=11)
        rng, seen = np.random.default_rng(0), []
        done = False
        while not done:
            if mode:
                env.render()
            obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            seen.append(obs.tobytes())
        played[mode] = (seen, [tuple(h.cards) for h in env.hands()])
    assert played[None] == played["ansi"] == played["rgb_array"]
