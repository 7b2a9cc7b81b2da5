from celery import shared_task


@shared_task(acks_late=True)
def send_invitation_email(invitation_id: str) -> bool:
    from agencies.services import invitation_send

    return invitation_send(invitation_id=invitation_id)


@shared_task
def purge_api_request_log() -> int:
    from agencies.request_log import request_log_purge

    return request_log_purge()
