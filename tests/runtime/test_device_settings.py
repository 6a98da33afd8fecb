"""The device process's settings are checked when it starts: a wrong one stops it with its name."""
import pytest

from config import ConfigError
from floor.runtime.background import start_devices
from tests.conftest import make_config


@pytest.mark.parametrize("priority", [-1, 100, "high", 2.5, True])
def test_a_real_time_priority_outside_1_to_99_is_refused_at_start(sqlite_url, tmp_path, priority):
    from app import create_app
    app = create_app(make_config(sqlite_url, tmp_path, app={"device_realtime_priority": priority}))
    with pytest.raises(ConfigError, match="device_realtime_priority"):
        start_devices(app)
    assert "floor_devices" not in app.extensions
