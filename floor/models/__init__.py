"""Every model, imported so the metadata (and Alembic) sees all tables."""
from floor.models.base import Base, utcnow  # noqa: F401
from floor.models.people import ROLES, ApiToken, Player, Staff  # noqa: F401
from floor.models.tables import Game, Seat, SeatAssignment, Table, TABLE_KINDS  # noqa: F401
from floor.models.audit import AuditRecord  # noqa: F401
from floor.models.alerts import Alert  # noqa: F401
from floor.models.conduct import Ban  # noqa: F401
from floor.models.service import ServiceHeartbeat  # noqa: F401
from floor.models.ledger import ACCOUNT_KINDS, Account, Transfer  # noqa: F401
from floor.models.rounds import Bet, DeviceFrame, Round, RoundCard, RoundEvent, Settlement, Shoe  # noqa: F401
