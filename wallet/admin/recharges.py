"""Recharges in the panel (created by an agency user, paid by QR code or boleto, marked paid
in the sandbox, cancelled) and every payment notification received, verified again by
support."""

import base64
import json
import secrets
from decimal import Decimal
from urllib.parse import urlencode

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.contrib.admin.utils import unquote
from django.contrib.admin.widgets import AdminRadioSelect
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect, QueryDict
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from agencies.models import Team
from core.exceptions import ApplicationError
from core.money import money_display
from core.tax_ids import tax_id_masked
from panel.admin import (
    ReadOnlyAdmin,
    TeamScopedAdmin,
    admin_url,
    is_support,
    live_mode_filter,
    money_cell,
    status_label,
    user_team_id,
)
from panel.forms import LocalizedDecimalField
from panel.roles import Area
from wallet import boleto, pix
from wallet.admin.reversals import ReversalInline
from wallet.models import PaymentMethod, ProviderNotification, Recharge, Transaction, Withdrawal
from wallet.page_tokens import payment_page_token
from wallet.selectors import wallet_balance_snapshot
from wallet.services import (
    notification_verify_again,
    recharge_cancel,
    recharge_complete,
    recharge_create_once,
    recharge_reversals_check,
)
from wallet.services.recharges import DAILY_LIMIT, MAX_AMOUNT, MIN_AMOUNT, payment_pages_open


class RechargeCreateForm(forms.Form):
    """What an agency user asks for: the mode, the method and the amount. The limits are
    recharge_create's (the API's); `token`, one per form shown, makes a form sent twice create
    one recharge (recharge_create_once)."""

    mode = forms.ChoiceField(
        label=_("Mode"),
        choices=[
            ("live", _("Live: a real charge, paid with real money")),
            ("test", _("Test: a sandbox charge with no value")),
        ],
        widget=AdminRadioSelect(attrs={"class": "radiolist"}),
    )
    payment_method = forms.ChoiceField(
        label=_("Payment method"),
        choices=PaymentMethod.choices,
        widget=AdminRadioSelect(attrs={"class": "radiolist inline"}),
    )
    amount = LocalizedDecimalField(label=_("Amount (R$)"))
    token = forms.CharField(widget=forms.HiddenInput, max_length=64)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["amount"].help_text = _(
            "From %(minimum)s to %(maximum)s per recharge, at most %(daily)s a day."
        ) % {
            "minimum": money_display(MIN_AMOUNT),
            "maximum": money_display(MAX_AMOUNT),
            "daily": money_display(DAILY_LIMIT),
        }

    def refuse(self, exc: ApplicationError) -> None:
        """recharge_create's refusal, where it belongs on the form and in the reader's words."""
        if exc.code == "amount_below_minimum":
            self.add_error(
                "amount",
                gettext("The minimum is %(amount)s.") % {"amount": money_display(MIN_AMOUNT)},
            )
        elif exc.code == "amount_above_maximum":
            self.add_error(
                "amount",
                gettext("The maximum is %(amount)s per recharge.")
                % {"amount": money_display(MAX_AMOUNT)},
            )
        elif exc.code == "daily_limit_exceeded":
            used = Decimal((exc.details or {}).get("used_today", "0"))
            self.add_error(
                None,
                gettext(
                    "Daily limit exceeded: %(used)s already recharged today in this mode, of "
                    "%(limit)s a day."
                )
                % {"used": money_display(used), "limit": money_display(DAILY_LIMIT)},
            )
        elif exc.code == "idempotency_key_reused":
            self.add_error(
                None,
                gettext(
                    "This form already created a recharge. Check the amount and send it again "
                    "to create another."
                ),
            )
            self.data = {**self.data, "token": new_form_token()}
        else:
            self.add_error(None, gettext(exc.message))


def new_form_token() -> str:
    return secrets.token_urlsafe(24)


PIX_FIELDS = ("pix_copy_paste",)
BOLETO_FIELDS = ("boleto_barcode", "boleto_linha_digitavel", "boleto_due_date")


def _payable(recharge: Recharge) -> bool:
    """Pending, its payment pages open, and its charge made (a recharge is pending a moment
    before the provider answers with its QR code or boleto)."""
    made = recharge.pix_copy_paste or recharge.boleto_barcode
    return (
        bool(made) and recharge.status == Recharge.Status.PENDING and payment_pages_open(recharge)
    )


class ReversedFilter(admin.SimpleListFilter):
    title = _("reversed after the credit")
    parameter_name = "reversed"

    def lookups(self, request, model_admin):
        return [("yes", _("Refunded or charged back")), ("owed", _("With a debt still owed"))]

    def queryset(self, request, queryset):
        if self.value() == "yes":
            return queryset.filter(reversals__isnull=False).distinct()
        if self.value() == "owed":
            return queryset.filter(reversals__debt_outstanding__gt=0).distinct()
        return queryset


@admin.register(Recharge)
class RechargeAdmin(TeamScopedAdmin):
    panel_area = Area.WALLET

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """The page's title is the recharge as people read it ("Recarga PIX de R$ 1.234,56 ·
        Concluída"), not "Visualizar recarga"."""
        recharge = self.get_object(request, unquote(object_id))
        if recharge is not None:
            extra_context = {"title": str(recharge), "subtitle": None, **(extra_context or {})}
        return super().change_view(request, object_id, form_url, extra_context)

    list_display = [
        "id",
        "team",
        "payment_method",
        "status_display",
        "money_amount",
        "created_at",
    ]
    list_filter = [
        live_mode_filter(),
        "status",
        ReversedFilter,
        "payment_method",
        "provider",
        "team",
    ]
    search_fields = ["id", "provider_charge_id", "boleto_linha_digitavel", "team__name"]
    search_help_text = _(
        "Recharge id, PIX transaction id (txid), linha digitável or barcode, provider charge id, "
        "or team."
    )
    date_hierarchy = "created_at"
    list_select_related = ["team"]
    readonly_fields = [
        "id",
        "team",
        "live_mode",
        "money_amount",
        "payment_method",
        "status_display",
        "provider",
        "provider_charge_id",
        "pix_copy_paste",
        "boleto_barcode",
        "boleto_linha_digitavel",
        "boleto_due_date",
        "expires_at",
        "paid_at",
        "money_paid",
        "transaction_link",
        "failure_reason",
        "created_at",
        "updated_at",
    ]
    fields = [*readonly_fields]
    inlines = [ReversalInline]
    actions = ["mark_paid", "cancel", "check_reversals"]

    class Media:
        js = ["wallet/copy.js"]  # the copy buttons (no inline script: the panel's CSP)
        css = {"all": ["wallet/recharge.css"]}

    def get_fields(self, request, obj=None):
        """The page of a recharge: how to pay it while it can be paid, and, once paid, who
        paid (and the PIX's end-to-end id)."""
        fields = list(super().get_fields(request, obj))
        if obj is not None:
            # Only the fields of the recharge's own method; while it can be paid, its code is
            # in "how to pay" (with its copy button), not a second time below.
            pix = obj.payment_method == PaymentMethod.PIX
            hidden = set(BOLETO_FIELDS if pix else PIX_FIELDS)
            if _payable(obj):
                hidden |= {"pix_copy_paste"} if pix else {"boleto_linha_digitavel"}
            fields = [name for name in fields if name not in hidden]
        after_status = fields.index("status_display") + 1
        if obj is not None and _payable(obj):
            fields.insert(after_status, "payment_instructions")
        paid = fields.index("money_paid") + 1
        payer = ["payer_display"]
        if obj is None or obj.payment_method == PaymentMethod.PIX:
            payer.append("pix_end_to_end_id")
        fields[paid:paid] = payer
        return fields

    def get_readonly_fields(self, request, obj=None):
        return [*self.readonly_fields, "payment_instructions", "payer_display", "pix_end_to_end_id"]

    @admin.display(description=_("how to pay"))
    def payment_instructions(self, obj):
        token = payment_page_token(obj.id)
        context = {"recharge": obj, "test_mode": not obj.live_mode}
        if obj.payment_method == PaymentMethod.PIX:
            png = base64.b64encode(pix.qr_png(obj.pix_copy_paste)).decode()
            context["qr_data_uri"] = f"data:image/png;base64,{png}"
        else:
            context["pdf_url"] = f"/api/v1/boleto/{obj.id}/pdf?{urlencode({'token': token})}"
        return render_to_string("admin/wallet/recharge/payment.html", context)

    @admin.display(description=_("payer"))
    def payer_display(self, obj):
        if not obj.payer_name and not obj.payer_tax_id:
            return "—"
        if not obj.payer_tax_id:
            return obj.payer_name
        return format_html("{} · {}", obj.payer_name or "—", tax_id_masked(obj.payer_tax_id))

    def add_view(self, request, form_url="", extra_context=None):
        """An agency user's new recharge: the same service as the API's, then its page, which
        shows the QR code or the boleto."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        team = Team.objects.get(pk=user_team_id(request))
        if request.method == "POST":
            form = RechargeCreateForm(request.POST)
            if form.is_valid():
                done = self._create(request, form, team)
                if done is not None:
                    return done
        else:
            filters = QueryDict(request.GET.get("_changelist_filters", ""))
            form = RechargeCreateForm(
                initial={
                    "mode": "test" if filters.get("mode") == "test" else "live",
                    "payment_method": PaymentMethod.PIX,
                    "token": new_form_token(),
                }
            )
        context = {
            **self.admin_site.each_context(request),
            "title": _("New recharge"),
            "subtitle": None,
            "opts": self.opts,
            "form": form,
            "media": self.media + form.media,
            "has_view_permission": self.has_view_permission(request),
            **(extra_context or {}),
        }
        request.current_app = self.admin_site.name
        return TemplateResponse(request, "admin/wallet/recharge/add.html", context)

    def _create(self, request, form, team):
        data = form.cleaned_data
        live_mode = data["mode"] == "live"
        try:
            recharge, created = recharge_create_once(
                team=team,
                live_mode=live_mode,
                amount=data["amount"],
                payment_method=data["payment_method"],
                key=data["token"],
            )
        except ApplicationError as exc:
            form.refuse(exc)
            return None
        mode = "live" if live_mode else "test"
        if recharge is None:  # the same form, sent twice: the first is still at the provider
            self.message_user(
                request,
                gettext("This recharge is still being created: it appears here in a moment."),
                messages.WARNING,
            )
            return HttpResponseRedirect(f"{admin_url(Recharge, 'changelist')}?mode={mode}")
        if created:
            self.message_user(
                request,
                gettext("Created: %(recharge)s.") % {"recharge": recharge},
                messages.SUCCESS,
            )
        # Back to the list it came from, in its mode.
        filters = urlencode({"_changelist_filters": urlencode({"mode": mode})})
        return HttpResponseRedirect(f"{admin_url(Recharge, 'change', recharge.pk)}?{filters}")

    def get_search_results(self, request, queryset, search_term):
        results, may_have_duplicates = super().get_search_results(request, queryset, search_term)
        term = search_term.strip()
        numbers = "".join(c for c in term if c.isdigit())
        if term.isalnum() and 1 <= len(term) <= 25:
            # The PIX txid sits inside the BR Code as its field 62-05: "05" + length + txid.
            txid = f"05{len(term):02d}{term.upper()}"
            results = results | queryset.filter(pix_copy_paste__contains=txid)
        if len(numbers) in (44, 47) and len(numbers) * 2 > len(term):
            # A linha digitável typed or pasted with or without its dots and spaces, or the
            # barcode: both name the same 44-digit barcode.
            try:
                barcode = numbers if len(numbers) == 44 else boleto.barcode_from_linha(numbers)
            except ValueError:
                barcode = None
            if barcode:
                results = results | queryset.filter(boleto_barcode=barcode)
        return results, may_have_duplicates

    @admin.display(description=_("status"), ordering="status")
    def status_display(self, obj):
        return status_label(obj.status, obj.get_status_display())

    @admin.display(description=_("amount"), ordering="amount")
    def money_amount(self, obj):
        return money_cell(obj.amount, obj.currency)

    @admin.display(description=_("amount paid"))
    def money_paid(self, obj):
        return money_cell(obj.paid_amount, obj.currency)

    @admin.display(description=_("transaction"))
    def transaction_link(self, obj):
        if not obj.transaction_id:
            return "—"
        url = admin_url(Transaction, "change", obj.transaction_id)
        return format_html('<a href="{}">{}</a>', url, obj.transaction_id)

    def has_add_permission(self, request):
        # An agency's users recharge their own wallet, here or through the API. Support does
        # not recharge for agencies (its actions on recharges are below).
        if is_support(request):
            return False
        return super().has_add_permission(request)

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.action(description=_("Mark paid (sandbox recharges only)"), permissions=["change"])
    def mark_paid(self, request, queryset):
        real = [r for r in queryset if r.provider != "sandbox"]
        for recharge in real:
            self.message_user(
                request,
                gettext(
                    "%(recharge)s is a real %(provider)s charge: it is paid by its payer, not here."
                )
                % {"recharge": recharge.id, "provider": recharge.provider},
                messages.ERROR,
            )
        sandbox = queryset.filter(provider="sandbox")
        if not sandbox.exists():
            return None

        def describe(recharge):
            if recharge.status == Recharge.Status.COMPLETED:
                return _("Already paid: nothing changes.")
            if not recharge.live_mode:
                return _("Test mode: %(amount)s is recorded; the live balance does not change.") % {
                    "amount": money_display(recharge.amount)
                }
            return _("The wallet is credited %(amount)s.") % {
                "amount": money_display(recharge.amount)
            }

        return self.confirm_then_run(
            request,
            sandbox,
            action="recharge_mark_paid",
            title=_("Mark recharges paid"),
            question=_("Mark these recharges paid?"),
            describe=describe,
            run=lambda recharge: recharge_complete(recharge=recharge),
            done_message=_("Marked %(object)s paid."),
            extra_changes=wallet_balance_snapshot,
        )

    @admin.action(description=_("Cancel pending recharges"), permissions=["change"])
    def cancel(self, request, queryset):
        def describe(recharge):
            if recharge.status != Recharge.Status.PENDING:
                return _("Not pending (%(status)s): it cannot be cancelled.") % {
                    "status": recharge.get_status_display()
                }
            return _(
                "The charge of %(amount)s is withdrawn; nothing is credited. Should the payer "
                "pay anyway, the payment is still credited."
            ) % {"amount": money_display(recharge.amount)}

        return self.confirm_then_run(
            request,
            queryset,
            action="recharge_cancel",
            title=_("Cancel recharges"),
            question=_("Cancel these recharges?"),
            describe=describe,
            run=lambda recharge: recharge_cancel(recharge=recharge),
            done_message=_("Cancelled %(object)s."),
        )

    @admin.action(
        description=_("Check refunds and chargebacks with the provider (takes back what it says)"),
        permissions=["verify"],
    )
    def check_reversals(self, request, queryset):
        def describe(recharge):
            if recharge.status != Recharge.Status.COMPLETED:
                return _("Not credited (%(status)s): nothing to take back.") % {
                    "status": recharge.get_status_display()
                }
            return _(
                "The payment is read back from %(provider)s. What it reports refunded or charged "
                "back and not yet reversed is debited from the wallet (the rest becomes debt); a "
                "chargeback it no longer reports is credited back."
            ) % {"provider": recharge.provider.capitalize()}

        return self.confirm_then_run(
            request,
            queryset.filter(live_mode=True),
            action="recharge_check_reversals",
            title=_("Check refunds and chargebacks"),
            question=_("Read these recharges' payments back from the provider?"),
            describe=describe,
            run=lambda recharge: recharge_reversals_check(recharge=recharge),
            done_message=_("Checked %(object)s with the provider."),
            extra_changes=wallet_balance_snapshot,
        )

    def has_verify_permission(self, request):
        return getattr(request.user, "is_support", False)


@admin.register(ProviderNotification)
class ProviderNotificationAdmin(ReadOnlyAdmin):
    """Every payment notification received, with what the provider said when we read the
    payment back. Support only. Never edited by hand (no add, change or delete): the only
    change is "verify again", which re-decides a rejected one and logs it in its history."""

    list_display = [
        "received_at",
        "event_type",
        "state",
        "reason",
        "payment_id",
        "recharge_link",
        "withdrawal_link",
        "provider_status",
        "alert_sent_at",
    ]
    list_filter = ["state", "reason", "provider", "event_type"]
    search_fields = ["event_id", "payment_id", "recharge__id", "withdrawal__id"]
    date_hierarchy = "received_at"
    list_select_related = ["recharge"]
    readonly_fields = [
        "provider",
        "event_id",
        "event_type",
        "payment_id",
        "recharge_link",
        "withdrawal_link",
        "received_at",
        "state",
        "reason",
        "detail",
        "provider_status",
        "provider_value",
        "provider_reference",
        "alert_sent_at",
        "alert_sent_to",
        "payload_pretty",
    ]
    fields = [*readonly_fields]
    actions = ["verify_again"]

    @admin.action(
        description=_("Verify again with the provider (credits what it now confirms)"),
        permissions=["verify"],
    )
    def verify_again(self, request, queryset):
        """For a rejected notification whose payment the provider may now show as received.
        A confirmation page first (it can move money), then each one verified and logged."""
        rejected = list(
            queryset.filter(state=ProviderNotification.State.REJECTED).select_related(
                "recharge__team"
            )
        )
        skipped = [n.event_id for n in queryset if n.state != ProviderNotification.State.REJECTED]
        if not rejected:
            self.message_user(
                request, gettext("Only rejected notifications can be verified again.")
            )
            return None
        if request.POST.get("post") != "yes":
            return TemplateResponse(
                request,
                "admin/wallet/providernotification/verify_again.html",
                {
                    **self.admin_site.each_context(request),
                    "title": _("Verify again with the provider?"),
                    "opts": self.model._meta,
                    "notifications": rejected,
                    "skipped": skipped,
                    "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
                },
            )
        for notification in rejected:
            before = f"{notification.get_reason_display()} ({notification.detail})"
            try:
                row = notification_verify_again(notification=notification)
            except ApplicationError as exc:
                self.message_user(
                    request,
                    gettext("Notification %(event)s: %(error)s")
                    % {"event": notification.event_id, "error": gettext(exc.message)},
                    messages.ERROR,
                )
                continue
            self.log_change(
                request,
                row,
                gettext("Verified again: was rejected, %(before)s; now %(state)s.")
                % {"before": before, "state": row.get_state_display()},
            )
            if row.state == ProviderNotification.State.REJECTED:
                self.message_user(
                    request,
                    gettext("Notification %(event)s: still rejected: %(reason)s (%(detail)s)")
                    % {
                        "event": row.event_id,
                        "reason": row.get_reason_display(),
                        "detail": row.detail,
                    },
                    messages.WARNING,
                )
            else:
                self.message_user(
                    request,
                    gettext("Notification %(event)s: %(state)s.")
                    % {"event": row.event_id, "state": row.get_state_display()},
                    messages.SUCCESS,
                )
        return None

    def has_verify_permission(self, request):
        return getattr(request.user, "is_support", False)

    @admin.display(description=_("recharge"), ordering="recharge")
    def recharge_link(self, obj):
        if not obj.recharge_id:
            return "—"
        url = admin_url(Recharge, "change", obj.recharge_id)
        return format_html('<a href="{}">{}</a>', url, obj.recharge_id)

    @admin.display(description=_("withdrawal"), ordering="withdrawal")
    def withdrawal_link(self, obj):
        if not obj.withdrawal_id:
            return "—"
        url = admin_url(Withdrawal, "change", obj.withdrawal_id)
        return format_html('<a href="{}">{}</a>', url, obj.withdrawal_id)

    @admin.display(description=_("body as received"))
    def payload_pretty(self, obj):
        return format_html("<pre>{}</pre>", json.dumps(obj.payload, indent=2, ensure_ascii=False))

    def has_module_permission(self, request):
        return getattr(request.user, "is_support", False)  # anonymous on the login page

    def has_view_permission(self, request, obj=None):
        return getattr(request.user, "is_support", False)
