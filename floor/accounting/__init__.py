"""A table's money through a shift: the chips in its tray counted and verified, fills and credits
between the cage and the tray on signed slips, the buy-ins and the drop, and the win and hold they
give, reconciled with the rounds the table settled (docs/table-accounting.md)."""
from floor.accounting.chips import chip_set, parse_chips  # noqa: F401
from floor.accounting.counts import enter_count, verify_count  # noqa: F401
from floor.accounting.drop import enter_drop_count, record_buy_in, verify_drop_count  # noqa: F401
from floor.accounting.sheet import count_due, day_figures, shifts, table_sheet, view  # noqa: F401
from floor.accounting.slips import approve_slip, cage_queue, cancel_slip, issue_slip, receive_slip, request_slip  # noqa: F401
