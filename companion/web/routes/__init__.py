"""One APIRouter per area; each module holds its request and response schemas."""
