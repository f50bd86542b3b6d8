"""A suite's title when no maintainer has set one: what its runs' names share."""

from benchboard.suites.titles import suite_title


def test_title_is_what_the_runs_names_share() -> None:
    names = [
        "Dart vs Go REST Server Performance Comparison Study (8 dedicated vCPU server)",
        "Dart vs Go REST Server Performance Comparison Study (40 dedicated vCPU server)",
        None,
    ]
    assert suite_title(names) == "Dart vs Go REST Server Performance Comparison Study"


def test_a_suite_with_one_named_run_takes_its_name() -> None:
    assert suite_title(["Synchronous IO is fast?!", "Synchronous IO is fast?!"]) == (
        "Synchronous IO is fast?!"
    )


def test_many_runs_with_little_in_common_give_no_title() -> None:
    assert suite_title(["nightly #5", "nightly #6"]) is None
    assert suite_title([None, None]) is None
