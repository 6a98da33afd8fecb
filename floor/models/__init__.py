"""Every model, imported so the metadata (and Alembic) sees all tables."""
from floor.models.alerts import Alert, AlertKind, AlertSeverity  # noqa: F401
from floor.models.audit import AuditRecord  # noqa: F401
from floor.models.base import Base, utcnow  # noqa: F401
from floor.models.conduct import Ban  # noqa: F401
from floor.models.dealers import DealerShift, DealerStint  # noqa: F401
from floor.models.devices import DeviceChunk, DeviceMark, LineLock, LinePause  # noqa: F401
from floor.models.disputes import PokerRuling  # noqa: F401
from floor.models.ledger import ACCOUNT_KINDS, Account, CashRequest, CashRequestKind, MoneyMove, Transfer, TransferKind  # noqa: F401
from floor.models.people import ROLES, ApiToken, LoginFailure, Player, Staff  # noqa: F401
from floor.models.pit import DECISIONS, RULING_KINDS, RoundRuling, RulingApproval  # noqa: F401
from floor.models.poker_room import (  # noqa: F401
                                      Bust,
                                      ListCall,
                                      MustMoveLink,
                                      PlayerPass,
                                      SeatAway,
                                      TableChangeRequest,
                                      WaitingList,
                                      WaitlistEntry,
)
from floor.models.poker_table import (  # noqa: F401
                                      MissedBlindTicket,
                                      PlayerWarning,
                                      PokerButtonPlacement,
                                      PokerEntryChoice,
                                      PokerHand,
                                      PokerHandSeat,
                                      PokerPosting,
                                      PokerSitOut,
)
from floor.models.ratings import IDENTIFIED_BY, PlayerVisit  # noqa: F401
from floor.models.rounds import (  # noqa: F401
    Bet,
    CardSource,
    DeviceFrame,
    Round,
    RoundCard,
    RoundEvent,
    RoundStatus,
    Settlement,
    SettlementOutcome,
    Shoe,
    ShoeStatus,
)
from floor.models.service import ServiceHeartbeat  # noqa: F401
from floor.models.tables import TABLE_KINDS, Game, Seat, SeatAssignment, Table, TableKind, TableStatus  # noqa: F401
from floor.models.timers import TIMER_STATUSES, Timer  # noqa: F401
from floor.models.tournaments import (  # noqa: F401
                                      BOUNTY_KINDS,
                                      TOURNAMENT_STATUSES,
                                      Tournament,
                                      TournamentDeal,
                                      TournamentDraw,
                                      TournamentElimination,
                                      TournamentEntry,
                                      TournamentMove,
                                      TournamentPause,
                                      TournamentPurchase,
                                      TournamentTable,
                                      TournamentTemplate,
)
from floor.models.table_money import (  # noqa: F401
                                      BuyIn,
                                      BuyInMethod,
                                      ChipSlip,
                                      CountKind,
                                      DropCount,
                                      SlipKind,
                                      SlipState,
                                      TrayCount,
)
