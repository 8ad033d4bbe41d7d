"""eventsourcing's own recorder test cases, run against warscribe's PostgreSQL factory
(`store/backends/postgresql_factory.py`) for what it offers: the aggregate recorder (a
game's events, the snapshots) and the application recorder (the store's events table,
as eventsourcing's `Application` asks for it). The tracking and process recorders are not
offered: the factory refuses them, naming what it is (`docs/developing.md`, "The store in
eventsourcing's terms")."""

from __future__ import annotations

import os
from typing import Any, ClassVar

import pytest
from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.postgres import PostgresTrackingRecorder
from eventsourcing.tests import application, persistence  # as modules: pytest collects
from eventsourcing.utils import Environment

from tests.conftest import drop_pg_schema, fresh_pg_url, require_postgres
from warscribe.store.backends import postgresql_factory as postgres
from warscribe.store.backends import resolve

FACTORY = "warscribe.store.backends.postgresql_factory:Factory"

_TIMING = "a timing of eventsourcing's recorder, no claim of the store's: left out of the suite"


def _env(url: str) -> dict[str, str]:
    env = dict(resolve(url).env)
    env["PERSISTENCE_MODULE"] = FACTORY
    return env


class _OnWarscribesFactory:
    """A schema of its own per case, and the factory as a PostgreSQL store opens it,
    making the recorder `made` (the name of the factory's method); eventsourcing's
    timing cases skipped."""

    factory: Any
    url: ClassVar[str]
    made = "application_recorder"

    def setUp(self) -> None:
        require_postgres()
        self.url = fresh_pg_url()
        self.factory = InfrastructureFactory.construct(_env(self.url))  # type: ignore[arg-type]

    def tearDown(self) -> None:
        self.factory.close()
        drop_pg_schema(self.url)

    def create_recorder(self) -> Any:
        recorder = getattr(self.factory, self.made)()
        recorder.create_table()
        return recorder

    def test_performance(self) -> None:
        pytest.skip(_TIMING)

    def test_concurrent_throughput(self) -> None:
        pytest.skip(_TIMING)


class TestAggregateRecorder(_OnWarscribesFactory, persistence.AggregateRecorderTestCase):
    made = "aggregate_recorder"


class TestApplicationRecorder(_OnWarscribesFactory, persistence.ApplicationRecorderTestCase[Any]):
    pass


class TestNonInterleavingNotificationIDs(
    _OnWarscribesFactory, persistence.NonInterleavingNotificationIDsBaseCase
):
    insert_num = 100


class TestFactory(persistence.InfrastructureFactoryTestCase[Any]):
    """What the factory makes; the recorders it does not offer are refused by name."""

    def setUp(self) -> None:
        require_postgres()
        self.url = fresh_pg_url()
        self.env = Environment("TestCase", _env(self.url))
        super().setUp()

    def tearDown(self) -> None:
        super().tearDown()
        drop_pg_schema(self.url)

    def expected_factory_class(self) -> Any:
        return postgres.Factory

    def expected_aggregate_recorder_class(self) -> Any:
        return postgres.SnapshotRecorder

    def expected_application_recorder_class(self) -> Any:
        return postgres.EventsRecorder

    def expected_tracking_recorder_class(self) -> Any:
        return PostgresTrackingRecorder

    def tracking_recorder_subclass(self) -> Any:
        return PostgresTrackingRecorder

    def expected_process_recorder_class(self) -> Any:
        raise AssertionError("not offered")

    def test_create_tracking_recorder(self) -> None:
        with pytest.raises(postgres.NotOffered, match="offers no a tracking recorder"):
            self.factory.tracking_recorder()

    def test_create_process_recorder(self) -> None:
        with pytest.raises(postgres.NotOffered, match="offers no a process recorder"):
            self.factory.process_recorder()


class TestExampleApplication(application.ExampleApplicationTestCase):
    """eventsourcing's example application (its own transcoder, its tables made by its
    open) on the factory: it failed to insert, the composite types never fetched."""

    expected_factory_topic = FACTORY

    def setUp(self) -> None:
        require_postgres()
        self.url = fresh_pg_url()
        self.saved = dict(os.environ)
        os.environ.update(_env(self.url))

    def tearDown(self) -> None:
        os.environ.clear()
        os.environ.update(self.saved)
        drop_pg_schema(self.url)
