"""Tasks reach a real Celery worker on Redis (CI), or run in-process when no broker is set."""

import os

import pytest

from clabber_league.core.tasks import health_probe


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_task_runs_in_a_worker_that_reaches_the_database(celery_worker_process, settings):
    result = health_probe.delay().get(timeout=60)
    assert result["database"]["ok"] is True
    if celery_worker_process is None:  # eager: the task ran in this process
        assert settings.CELERY_TASK_ALWAYS_EAGER
        assert result["pid"] == os.getpid()
    else:  # a separate worker process on the test database
        assert result["pid"] == celery_worker_process["pid"]
        assert result["database"]["detail"] == "postgresql"
