"""The slow tier: the tests `pytest -m "not slow"` leaves out so that the rest runs in
under 90 seconds (issue 34); CI runs every test. tests/conftest.py marks them `slow`
(`mark_slow`), and tests/test_tiers.py checks that each one named is a test of its module
(a test renamed or removed leaves this list too). A test may also carry
`@pytest.mark.slow` itself.

Chosen from `pytest --durations=0` of the full suite: every test that took a second or
more on a loaded 2-core machine, but the golden logs (the bar: they must always replay).
"""

from __future__ import annotations

import pytest

SLOW: dict[str, tuple[str, ...]] = {
    "tests/cli/test_board_shots.py": (),  # a game played, then drawn by Chromium
    "tests/cli/test_cli.py": (
        "test_default_store_is_warscribe_db_and_env_sets_it",
        "test_import_refuses_another_games_file_and_leaves_the_store_alone",
    ),
    "tests/cli/test_divine_right_battle_cli.py": (
        "test_a_neutral_castle_besieged_and_the_besiegers_displaced",
    ),
    "tests/cli/test_divine_right_cli.py": (
        "test_kingdoms_text_has_a_header_row_and_the_json_is_unchanged",
        "test_twenty_turns_of_random_events_and_diplomacy",
    ),
    "tests/cli/test_divine_right_combat_cli.py": (),  # whole battles through the CLI
    "tests/cli/test_eu_pop_cli.py": ("test_every_eu_pop_example_parses",),
    "tests/cli/test_index.py": (
        "test_a_fresh_process_verifies_a_game_with_snapshots",
        "test_help_lists_every_command_as_if_all_were_loaded",
        "test_the_index_is_made_at_first_use_and_read_back_after",
    ),
    "tests/cli/test_jsontext.py": (
        "test_every_entry_of_a_random_games_log_is_written_as_json_writes_it",
        "test_the_text_is_jsons_indented_text",
    ),
    "tests/cli/test_log_from.py": ("test_log_from_reads_only_what_it_prints",),
    "tests/cli/test_mailbox.py": (
        "test_a_folder_meant_as_a_maildir_without_its_subfolders_is_refused",
        "test_a_player_imports_an_mbox_and_a_folder_of_eml_files",
        "test_a_turn_by_mail_with_quoting_forwarding_and_chatter",
        "test_orders_mailed_in_any_mime_shape_are_recorded",
        "test_returned_commands_are_reported_as_the_player_typed_them",
        "test_starttls_and_a_login_from_the_environment",
        "test_the_first_run_mails_each_player_their_copy",
    ),
    "tests/cli/test_notify.py": (),  # referee runs through an SMTP server
    "tests/cli/test_orders_in_cli_words.py": (
        "test_every_command_legal_offers_reads_back_from_its_line",
    ),
    "tests/cli/test_pbem.py": (
        "test_a_game_by_email_between_three_stores",
        "test_fork_at_a_phase_and_both_lines_go_on",
        "test_status_in_a_players_store_while_another_holds_hidden_cards",
        "test_the_audit_catches_a_hand_edited_outcome",
    ),
    "tests/cli/test_pbem_game.py": (),  # seeded three-player games by mail
    "tests/cli/test_pictures_svg.py": ("test_a_png_is_drawn_by_chromium_and_refused_without_it",),
    "tests/cli/test_reach.py": ("test_map_svg_lights_up_the_spaces_a_stack_can_reach",),
    "tests/cli/test_reads.py": (
        "test_a_query_never_opens_the_store_whole",
        "test_a_write_after_a_read_reads_from_the_store_it_opened",
    ),
    "tests/cli/test_viewer_browser.py": (),  # Chromium
    "tests/engine/divine_right/test_legal.py": (
        "test_a_stack_by_a_river_is_offered_the_ferry_of_a_fleet_on_it",
        "test_a_stack_is_offered_a_path_to_each_space_it_reaches",
    ),
    "tests/engine/eu_pop/test_edges.py": ("test_4_4_a_round_at_the_edges_is_always_recorded",),
    "tests/engine/test_commands.py": (
        "test_every_bad_argument_of_every_command_is_an_invalid_command_naming_it",
    ),
    "tests/engine/test_random_play.py": (),  # seeded random games of every rule set
    "tests/security/test_concurrent_writers.py": (),  # processes writing at once
    "tests/security/test_forks.py": (),  # signed heads across mailed copies
    "tests/security/test_fuzz_import.py": (),  # the 2,000-case fuzzer
    "tests/security/test_host_acts.py": ("test_no_fork_starts_between_a_host_act_and_its_command",),
    "tests/security/test_host_dice.py": (
        "test_what_the_host_records_before_the_orders_changes_none_of_their_dice",
    ),
    "tests/security/test_mailbox.py": (
        "test_a_replayed_old_mail_is_refused",
        "test_no_credentials_on_the_command_line",
        "test_replies_go_to_the_recorded_address_not_the_sender",
        "test_the_same_block_twice_is_one_block",
    ),
    "tests/security/test_poison_mail.py": (
        "test_a_from_whose_encoded_word_holds_a_line_break_is_taken_without_it",
        "test_a_mailbox_of_hostile_and_valid_mails_is_taken_with_one_reply_each",
        "test_a_message_id_that_is_no_plain_msg_id_is_dropped",
        "test_a_replayed_mail_with_a_hostile_message_id_leaves_everyone_mailed",
        "test_a_run_killed_between_steps_is_finished_by_the_next",
        "test_a_second_run_at_once_waits_or_is_refused_cleanly",
        "test_armor_is_scanned_in_time_linear_in_the_mails_size",
        "test_mime_nested_past_the_bound_is_set_aside_and_the_others_are_taken",
        "test_no_hostile_mail_escapes_the_referees_reading",
        "test_one_referee_run_at_a_time_on_postgresql",
    ),
    "tests/security/test_secrets.py": (
        "test_a_passphrase_seals_the_secrets_file_and_a_wrong_one_is_refused",
        "test_a_plain_secrets_file_is_sealed_when_read_with_a_passphrase",
        "test_processes_creating_games_at_once_all_keep_their_secrets",
    ),
    "tests/store/test_concurrency.py": (),
    "tests/store/test_eventsourcing_cases.py": ("TestApplicationRecorder",),
    "tests/store/test_postgres.py": (
        "test_a_command_decided_on_a_kept_head_takes_the_turn_in_its_write",
    ),
    "tests/store/test_postgres_faults.py": (),  # a PostgreSQL server killed under load
    "tests/store/test_reading.py": ("test_it_answers_as_the_store_does",),
    "tests/store/test_record.py": ("test_snapshots_give_the_same_state_as_a_full_replay",),
    "tests/store/test_replay_rows.py": (
        "test_a_damaged_row_is_never_read_otherwise_than_decoding_it_whole",
        "test_a_random_games_stored_rows_replay_to_its_head",
        "test_fields_with_a_hidden_part_or_a_record_event_fold_as_their_entry",
    ),
    "tests/store/test_writing.py": (
        "test_a_store_first_opened_without_snapshots_has_their_table_for_the_next_open",
    ),
    "tests/test_packaging.py": ("test_the_wheel_holds_every_package_and_data_file",),  # pip
    "tests/test_quality.py": ("test_mypy_strict_is_clean",),
    "tests/third_game/test_third_game.py": (
        "test_a_game_installed_beside_warscribe_is_played_through_the_cli",  # pip builds it
    ),
    "tests/web/test_referee_browser.py": (),  # Chromium, through `serve` in its own process
    "tests/web/test_serve.py": (
        "test_a_whole_turn_plays_a_card_attacks_and_answers_the_losses",  # two turns first
        "test_past_host_dice_the_page_shows_the_dry_runs_verdicts",
    ),
    "tests/web/test_serve_browser.py": (),  # Chromium, through `serve` in its own process
}
"""Per test module, the tests of the slow tier (a test class, or a test with all its
parameters); none named: the whole module."""


def mark_slow(items: list[pytest.Item]) -> None:
    """Mark the slow tier's tests `slow`."""
    for item in items:
        module, _, name = item.nodeid.partition("[")[0].partition("::")
        names = SLOW.get(module)
        if names is not None and (not names or name.partition("::")[0] in names):
            item.add_marker(pytest.mark.slow)
