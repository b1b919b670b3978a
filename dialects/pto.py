"""One import for users: `from pypto_mlir.dialects import pto` then `pto.LoadOp`, `pto.TileType`, ..."""

from .pto_ops import *  # noqa: F401,F403
from .pto_ops import ALL_OPS  # noqa: F401
from .pto_traits import *  # noqa: F401,F403
from .pto_types import *  # noqa: F401,F403
from .pto_view_ops import *  # noqa: F401,F403
from .pto_comm_ops import *  # noqa: F401,F403
from .pto_mx_ops import *  # noqa: F401,F403
from .pto_lane_ops import *  # noqa: F401,F403
from . import ALL_PTO_OPS, PTO  # noqa: F401
