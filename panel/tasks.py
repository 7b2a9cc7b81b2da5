from celery import shared_task


@shared_task
def send_password_reset_email(
    *, user_id: int, domain: str, site_name: str, protocol: str, language: str
) -> bool:
    """A password-reset e-mail, from the `emails` queue (the web request only queues it). The
    link is made here, so its token never travels through the broker."""
    from panel.sites import password_reset_send

    return password_reset_send(
        user_id=user_id, domain=domain, site_name=site_name, protocol=protocol, language=language
    )
